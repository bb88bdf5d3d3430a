package io.criresmgr.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.CommandTree;
import java.io.PrintWriter;
import java.io.StringWriter;
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
            (options, store) -> {
              throw new AssertionError("the daemon must not start");
            },
            Main.subcommands());
    return new Run(status, out.toString(), err.toString());
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
