package io.criresmgr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class GoStyleArgsTest {
  /** Flags like the webhook's, and a subcommand with its own flag. */
  @Command(name = "tool", subcommands = Sub.class)
  static final class Tool {
    @Option(names = "--cert-file")
    String cert = "";

    @Option(names = "--key-file")
    String key = "";

    @Option(names = "--port")
    int port;

    @Option(names = "-h")
    boolean help;

    @Option(names = "--verbose")
    boolean verbose;
  }

  @Command(name = "sub")
  static final class Sub {
    @Option(names = "--socket")
    String socket = "";
  }

  private static List<String> normalize(String... args) {
    return List.of(GoStyleArgs.normalize(new CommandLine(new Tool()), args));
  }

  @Test
  void doublesTheDashOfKnownLongOptions() {
    assertEquals(
        List.of("--cert-file=/c", "--key-file", "/k", "--port", "8443", "-h", "--verbose"),
        normalize("-cert-file=/c", "-key-file", "/k", "-port", "8443", "-h", "-verbose"));
  }

  @Test
  void leavesValuesUnknownOptionsAndTheRestAlone() {
    assertEquals(
        List.of("--cert-file", "-port", "-bogus", "--", "-port"),
        normalize("--cert-file", "-port", "-bogus", "--", "-port"));
  }

  @Test
  void followsSubcommands() {
    assertEquals(
        List.of("--verbose", "sub", "--socket", "-verbose"),
        normalize("-verbose", "sub", "-socket", "-verbose"));
  }
}
