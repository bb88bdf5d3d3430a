package io.criresmgr.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.CommandTree;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The program's command tree offers every subcommand, and each one runs. */
class MainTest {
  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        CommandTree.run(
            args,
            new PrintWriter(out),
            new PrintWriter(err),
            (options, store, early) -> {
              throw new AssertionError("the daemon must not start");
            },
            Main.subcommands());
    return new Run(status, out.toString(), err.toString());
  }

  /**
   * The program binds SLF4J to the provider it names, also when a subcommand has a static logger: a
   * service lookup instead opens every jar, a tenth of the daemon's start-up.
   */
  @Test
  void theProgramNamesItsLoggingBindingBeforeAnySubcommandLogs() throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dslf4j.internal.verbosity=INFO",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "--version")
            .redirectErrorStream(true)
            .start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "cri-resmgr --version did not end");
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), output);
    assertTrue(
        // By name: a test-scoped dependency on cli would take its jar off the program's class path.
        output.contains("\"io.criresmgr.cli.LogbackProvider\""),
        "SLF4J did not load the named provider: " + output);
  }

  @Test
  void helpListsSimRuntimeAndSimulate() {
    Run run = run("--help");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("\n  sim-runtime  "), run.out());
    assertTrue(run.out().contains("\n  simulate  "), run.out());
  }

  @Test
  void simRuntimeTakesItsOwnFlags() {
    Run run = run("sim-runtime", "--help");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("Usage: cri-resmgr sim-runtime "), run.out());
    assertTrue(run.out().contains("--socket"), run.out());
  }

  @Test
  void simulateTakesItsOwnFlags() {
    Run run = run("simulate", "--help");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().startsWith("Usage: cri-resmgr simulate "), run.out());
    assertTrue(run.out().contains("--pods"), run.out());
  }
}
