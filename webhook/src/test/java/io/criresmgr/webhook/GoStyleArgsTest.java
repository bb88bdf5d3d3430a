package io.criresmgr.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

class GoStyleArgsTest {
  private final CommandSpec spec = new CommandLine(new WebhookCommand(s -> {})).getCommandSpec();

  @Test
  void doublesTheDashOfKnownLongOptions() {
    assertEquals(
        List.of("--cert-file=/c", "--key-file", "/k", "--port", "8443", "-h"),
        normalize("-cert-file=/c", "-key-file", "/k", "-port", "8443", "-h"));
  }

  @Test
  void leavesValuesUnknownOptionsAndTheRestAlone() {
    assertEquals(
        List.of("--cert-file", "-port", "-bogus", "--", "-port"),
        normalize("--cert-file", "-port", "-bogus", "--", "-port"));
  }

  private List<String> normalize(String... args) {
    return List.of(GoStyleArgs.normalize(spec, args));
  }
}
