package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills the daemon with SIGKILL at random points of a pod and container lifecycle, at least 50
 * times, and checks after every restart that the cache reconciled with the runtime and the CPU
 * invariants hold (see {@link CrashInvariants}).
 *
 * <p>The simulated runtime lives in this JVM and keeps its state across restarts; each daemon is a
 * separate {@code cri-resmgr} process with policy {@code template} on CPUs 0-7 of a fake host. Kill
 * points: while a CreateContainer is in flight (0-30 ms after sending it, with the runtime taking
 * 0-20 ms to create), while another request is in flight, and right after a run of requests (while
 * the daemon may still send updates and save its cache). {@code -Dcrash.seed=N} repeats a run,
 * {@code -Dcrash.iterations=N} changes the number of kills.
 */
class CrashIT {
  private static final Logger LOG = LoggerFactory.getLogger(CrashIT.class);
  private static final Pattern SYNCED =
      Pattern.compile(
          "synchronized with the runtime: (\\d+) containers kept, (\\d+) adopted, (\\d+) released");

  @TempDir Path dir;

  private final List<String> killPoints = new ArrayList<>();
  private final List<Long> served = new ArrayList<>();
  private int kept;
  private int adopted;
  private int released;
  private int killsWithJournal;

  @Test
  void everyRestartReconcilesTheCacheAndKeepsCpusExclusive() throws Exception {
    long seed = Long.getLong("crash.seed", System.nanoTime());
    int iterations = Integer.getInteger("crash.iterations", 50);
    LOG.info("crash test: seed {} ({} kills; repeat with -Dcrash.seed={})", seed, iterations, seed);
    CrashDaemon.Layout layout = layout();
    long started = System.nanoTime();
    try (SimRuntimeServer server = new SimRuntimeServer(dir.resolve("sim.sock"), sim()).start();
        RawClient truth = new RawClient(server.socket())) {
      CrashJvm jvm = warmUp(layout);
      Random random = new Random(seed);
      CrashRun run = new CrashRun(layout, jvm, server.runtime(), truth.channel(), random, dir);
      for (int i = 0; i < iterations; i++) {
        record(run.iteration(i, i % 10 == 9));
      }
      record(run.finish(iterations));
    }
    long createsInFlight =
        killPoints.stream()
            .filter(k -> k.contains("CreateContainer") && k.contains("in flight"))
            .count();
    summarize(Duration.ofNanos(System.nanoTime() - started), iterations, createsInFlight);
    assertTrue(createsInFlight > 0, "no kill hit a CreateContainer in flight: " + killPoints);
    assertTrue(kept > 0, "no container ever survived a restart: the workload did too little");
    assertTrue(killsWithJournal > 0, "no kill left a cache journal for the next start to replay");
  }

  private CrashJvm warmUp(CrashDaemon.Layout layout) throws Exception {
    long t0 = System.nanoTime();
    CrashJvm jvm = CrashJvm.withSharedArchive(layout, dir);
    LOG.info(
        "crash test: warm-up daemon dumped its classes in {} ms, daemons run with {}",
        Duration.ofNanos(System.nanoTime() - t0).toMillis(),
        jvm.options());
    return jvm;
  }

  private void summarize(Duration took, int iterations, long createsInFlight) {
    List<Long> sorted = served.stream().sorted().toList();
    LOG.info(
        "crash test: {} kills in {} s; daemons served after {}/{}/{} ms (min/median/max); {} kills"
            + " with a CreateContainer in flight; restarts kept {} containers, adopted {},"
            + " released {}; {} kills left a journal",
        iterations,
        took.toSeconds(),
        sorted.get(0),
        sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() - 1),
        createsInFlight,
        kept,
        adopted,
        released,
        killsWithJournal);
  }

  private void record(CrashRun.Outcome outcome) {
    killPoints.add(outcome.killPoint());
    served.add(outcome.servedMillis());
    killsWithJournal += outcome.journalBytes() > 0 ? 1 : 0;
    Matcher m = SYNCED.matcher(outcome.daemonLog());
    if (m.find()) {
      kept += Integer.parseInt(m.group(1));
      adopted += Integer.parseInt(m.group(2));
      released += Integer.parseInt(m.group(3));
    }
  }

  static SimRuntime sim() {
    return new SimRuntime(
        SimOptions.defaults()
            .withRuntimeName("containerd")
            .withImages(List.of(CrashRequests.IMAGE)));
  }

  private CrashDaemon.Layout layout() throws IOException {
    return layout(dir);
  }

  /**
   * A daemon layout in {@code dir}: a fake host with CPUs 0-7 online and a configuration forcing
   * policy template on them.
   */
  static CrashDaemon.Layout layout(Path dir) throws IOException {
    Path host = dir.resolve("host");
    write(host.resolve("sys/devices/system/cpu/online"), "0-7\n");
    write(host.resolve("sys/devices/system/node/online"), "0\n");
    Path config = dir.resolve("cri-resmgr.cfg");
    write(
        config,
        String.join(
            "\n",
            "policy:",
            "  Active: template",
            "  AvailableResources:",
            "    CPU: cpuset:" + CrashRun.CPUS,
            "instrumentation:",
            "  HTTPEndpoint: \"\"",
            ""));
    Files.createDirectories(dir.resolve("logs"));
    return new CrashDaemon.Layout(
        dir.resolve("sim.sock"),
        dir.resolve("relay/cri-resmgr.sock"),
        dir.resolve("state"),
        dir.resolve("cri-resmgr.pid"),
        host,
        config);
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
