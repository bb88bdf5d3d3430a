package io.criresmgr.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of the kubelet-like polling load (docs/benchmarks.md, "Kubelet-like polling"): a
 * few pods and containers through an in-process daemon in front of the simulated runtime, two
 * seconds of polling, this JVM as the measured process, so the driver cannot rot. The figures mean
 * nothing here; what the polls list does.
 */
class PollingLoadIT {
  @Test
  void pollsEverythingItCreatedThroughTheDaemon() throws Exception {
    for (PollingLoad.StatsCalls stats : PollingLoad.StatsCalls.values()) {
      PollingLoad.Report report = runSmall(stats);
      assertEquals(new PollingLoad.Listed(3, 5, 5, 3), report.listed(), stats.name());
      assertTrue(report.rounds() >= 2, stats + ": rounds " + report.rounds());
      assertTrue(report.pollWall().compareTo(Duration.ofSeconds(2)) >= 0, report.toString());
      assertTrue(report.created().rssKb() > 0, report.toString());
      assertEquals(7, report.lines().size(), report.lines().toString());
    }
  }

  @Test
  void rejectsBadCommandLinesNamingTheOptionAndWhatIsAllowed() {
    var pods = assertThrows(IllegalArgumentException.class, () -> parse("--pods", "0"));
    assertEquals("pods: 0 is not allowed, must be >= 1", pods.getMessage());
    var stats = assertThrows(IllegalArgumentException.class, () -> parse("--stats", "all"));
    assertEquals("--stats: 'all' is not allowed, must be list or each", stats.getMessage());
    var number = assertThrows(IllegalArgumentException.class, () -> parse("--seconds", "1m"));
    assertEquals("--seconds: '1m' is not allowed, must be a whole number", number.getMessage());
    var unknown =
        assertThrows(IllegalArgumentException.class, () -> PollingLoadMain.parse("--sockets", "x"));
    assertTrue(unknown.getMessage().startsWith("unknown option '--sockets', allowed: --"));
  }

  @Test
  void parsesTheDefaults() {
    PollingLoadMain.Command c = PollingLoadMain.parse("--socket", "/x.sock", "--pid", "42");
    assertEquals(Path.of("/x.sock"), c.socket());
    assertEquals(42, c.pid());
    assertEquals(
        new PollingLoad.Settings(
            110,
            500,
            Duration.ofSeconds(30),
            Duration.ofSeconds(60),
            Duration.ofSeconds(30),
            PollingLoad.StatsCalls.LIST),
        c.settings());
  }

  private static PollingLoadMain.Command parse(String option, String value) {
    return PollingLoadMain.parse("--socket", "/x.sock", "--pid", "1", option, value);
  }

  private static PollingLoad.Report runSmall(PollingLoad.StatsCalls stats) throws Exception {
    Path dir = Files.createTempDirectory("crb");
    var settings =
        new PollingLoad.Settings(
            3, 5, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofMillis(100), stats);
    List<String> log = new ArrayList<>();
    try (Testbed bed =
        Testbed.start(
            Route.CRI_RESMGR, dir, new SimBackend(), PipelineBenchmark.daemonConfig(false))) {
      return PollingLoad.run(bed.stub(), ProcessHandle.current().pid(), settings, log::add);
    } finally {
      RelayBenchmark.deleteTree(dir);
    }
  }
}
