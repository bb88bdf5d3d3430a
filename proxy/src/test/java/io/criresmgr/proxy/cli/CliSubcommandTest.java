package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cli.Cli;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class CliSubcommandTest {
  /** A subcommand like sim-runtime: one option, fails with a configuration error on request. */
  @Command(name = "echo")
  static final class EchoCommand implements Callable<Integer> {
    @Option(names = "--socket", defaultValue = "/x.sock")
    String socket = "";

    @Option(names = "--fail", arity = "0..1", fallbackValue = "true")
    boolean fail;

    final StringWriter seen = new StringWriter();

    @Override
    public Integer call() {
      if (fail) {
        throw new ConfigException("echo: asked to fail");
      }
      seen.write(socket);
      return 3;
    }
  }

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final EchoCommand echo = new EchoCommand();

  private int run(String... args) {
    DaemonStartup startup = new DaemonStartup(ConfigLoader.builtIn(), (o, s, early) -> 0, Map.of());
    return Cli.execute(
        Cli.commandLine(
            new CriResmgrCommand(BuiltInPolicies.registry(), startup),
            List.of(echo),
            new PrintWriter(out),
            new PrintWriter(err),
            ConfigException.class::isInstance),
        args);
  }

  @Test
  void subcommandsTakeGoStyleFlags() {
    assertEquals(3, run("echo", "-socket", "/run/sim.sock"));
    assertEquals("/run/sim.sock", echo.seen.toString());
  }

  @Test
  void subcommandErrorsAreHandledLikeTheRootCommand() {
    assertEquals(1, run("echo", "-fail"));
    assertEquals("cri-resmgr echo: echo: asked to fail\n", err.toString());
    err.getBuffer().setLength(0);
    assertEquals(1, run("echo", "--bogus"));
    assertTrue(
        err.toString()
            .startsWith("cri-resmgr echo: Unknown option: '--bogus'\nUsage: cri-resmgr echo"));
  }
}
