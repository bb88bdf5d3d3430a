package io.criresmgr.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.daemon.RuntimeConnection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which command lines start the daemon without picocli's model of the command (ADR 0011). */
class CommandTreeTest {
  @TempDir Path dir;

  private final List<DaemonOptions> started = new ArrayList<>();
  private final List<Optional<RuntimeConnection>> connections = new ArrayList<>();
  private int subcommandsMade;
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CommandTree.run(
        args,
        new PrintWriter(new StringWriter()),
        new PrintWriter(err),
        (options, store, early) -> {
          started.add(options);
          connections.add(early);
          return 0;
        },
        () -> {
          subcommandsMade++;
          return List.of();
        });
  }

  @Test
  void aPlainDaemonCommandLineStartsTheDaemonWithoutBuildingTheCommandTree() {
    // a runtime socket of its own: the connection begun for it must not reach a real runtime
    Path runtime = dir.resolve("rt.sock");
    assertEquals(
        0,
        run(
            "--relay-dir",
            dir.toString(),
            "-allow-untested-runtimes",
            "--runtime-socket",
            runtime.toString()));
    assertEquals(0, subcommandsMade);
    assertEquals(1, started.size());
    assertEquals(dir, started.get(0).relayDir());
    assertTrue(started.get(0).allowUntestedRuntimes());
    assertTrue(connections.get(0).orElseThrow().isFor(started.get(0)));
  }

  @Test
  void anythingElseGoesThroughPicocli() {
    assertEquals(
        0, run("--relay-dir", dir.toString(), "-v=2", "--runtime-socket", dir + "/rt.sock"));
    assertEquals(1, subcommandsMade);
    assertEquals(dir, started.get(0).relayDir());
    assertEquals(Optional.empty(), connections.get(0), "picocli's daemon connects in its start");
  }

  @Test
  void inconsistentFlagsGetPicocliUsageError() {
    assertEquals(1, run("--force-config=/a.cfg", "--fallback-config=/b.cfg"));
    assertEquals(1, subcommandsMade);
    assertTrue(
        err.toString()
            .startsWith(
                "cri-resmgr: --force-config and --fallback-config are mutually exclusive, give"
                    + " one\nUsage: cri-resmgr"),
        err.toString());
    assertEquals(List.of(), started);
  }

  @Test
  void aBrokenForcedConfigurationIsReportedOnceWithoutTheUsageAndStopsTheRuntimeConnection()
      throws Exception {
    Path config = Files.writeString(dir.resolve("bad.cfg"), "dump:\n  Debug: loud\n");
    Path runtime = dir.resolve("never-served.sock");
    assertEquals(
        1,
        run(
            "--force-config",
            config.toString(),
            "--relay-dir",
            dir.toString(),
            "--runtime-socket",
            runtime.toString()));
    assertEquals(0, subcommandsMade);
    assertTrue(err.toString().startsWith("cri-resmgr: " + config), err.toString());
    assertEquals(1, err.toString().lines().count(), err.toString());
    assertEquals(List.of(), started);
    assertFalse(
        Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.getName().equals("runtime-connect")),
        "the connection waiting for " + runtime + " is stopped");
  }
}
