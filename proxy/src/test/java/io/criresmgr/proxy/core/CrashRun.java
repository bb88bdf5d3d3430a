package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimHooks;
import io.criresmgr.sim.SimRuntime;
import io.grpc.Channel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crash test's loop body: start a daemon, wait until it serves and is quiet, check the
 * invariants, run a random prefix of the workload, kill the daemon at a random point.
 */
final class CrashRun {
  /** The CPUs the policy hands out. */
  static final CpuSet CPUS = CpuSet.range(0, 7);

  private static final Logger LOG = LoggerFactory.getLogger(CrashRun.class);
  private static final Duration SERVE_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration QUIET_TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern BAD_LOG_LINE = Pattern.compile(" ERROR |corrupt");

  /**
   * One daemon's life.
   *
   * @param killPoint where it was killed
   * @param daemonLog its output
   * @param servedMillis how long it took from the process start to answering Version
   * @param journalBytes the size of the cache journal it left (0: none), replayed by the next start
   */
  record Outcome(String killPoint, String daemonLog, long servedMillis, long journalBytes) {}

  private final CrashDaemon.Layout layout;
  private final CrashJvm jvm;
  private final SimRuntime sim;
  private final Channel truth;
  private final Random random;
  private final Path dir;
  private final CrashWorkload workload;
  private String previous = "(none: first start)";

  CrashRun(
      CrashDaemon.Layout layout,
      CrashJvm jvm,
      SimRuntime sim,
      Channel truth,
      Random random,
      Path dir) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.jvm = Objects.requireNonNull(jvm, "jvm");
    this.sim = Objects.requireNonNull(sim, "sim");
    this.truth = Objects.requireNonNull(truth, "truth");
    this.random = Objects.requireNonNull(random, "random");
    this.dir = Objects.requireNonNull(dir, "dir");
    this.workload = new CrashWorkload(random, sim, truth);
  }

  /** Iteration {@code i}: start, check, work ({@code cleanUp}: garbage-collect first), kill. */
  Outcome iteration(int i, boolean cleanUp) throws Exception {
    setLatencies();
    if (random.nextInt(10) == 0) {
      killWhileStarting(i);
    }
    long t0 = System.nanoTime();
    CrashDaemon daemon = CrashDaemon.start(layout, jvm, log(i));
    try {
      daemon.awaitServing(layout, SERVE_TIMEOUT);
      long served = millisSince(t0);
      long quiet = awaitInvariants(daemon);
      List<String> done = new ArrayList<>();
      String killPoint = workAndKill(daemon, cleanUp, done);
      long journal = journalBytes();
      LOG.info(
          "iteration {}: pid {} served after {} ms, quiet {} ms later; {} requests{}; killed {};"
              + " journal {} bytes",
          i,
          daemon.pid(),
          served,
          quiet,
          done.size(),
          refused(done),
          killPoint,
          journal);
      previous = "requests " + done + ", killed " + killPoint + "\n" + daemon.output();
      return new Outcome(killPoint, daemon.output(), served, journal);
    } finally {
      daemon.destroy();
    }
  }

  /** Kills a daemon while it starts, possibly in the middle of reconciling with the runtime. */
  private void killWhileStarting(int i) throws Exception {
    CrashDaemon daemon = CrashDaemon.start(layout, jvm, dir.resolve("logs/" + i + "-early.log"));
    try {
      int after = 200 + random.nextInt(800);
      Thread.sleep(after);
      daemon.kill();
      LOG.info("iteration {}: killed a starting daemon after {} ms", i, after);
    } finally {
      daemon.destroy();
    }
  }

  /** A last start after {@code iterations} kills, checked, then stopped with SIGTERM. */
  Outcome finish(int iterations) throws Exception {
    long t0 = System.nanoTime();
    CrashDaemon daemon = CrashDaemon.start(layout, jvm, log(iterations));
    try {
      daemon.awaitServing(layout, SERVE_TIMEOUT);
      long served = millisSince(t0);
      awaitInvariants(daemon);
      int status = daemon.stop();
      previous = "stopped with SIGTERM\n" + daemon.output();
      if (status != 0) {
        // systemd counts any other status as a failed service (143: the JVM's default)
        throw new AssertionError("exit status " + status + " after SIGTERM\n" + daemon.output());
      }
      check(daemon, "after SIGTERM");
      if (journalBytes() != 0) {
        throw new AssertionError("a stopped daemon left its journal: its cache file is not whole");
      }
      return new Outcome("SIGTERM", daemon.output(), served, 0);
    } finally {
      daemon.destroy();
    }
  }

  /** The requests that failed, e.g. " (refused: [CreateContainer pod-1/x3 -> NOT_FOUND])". */
  private static String refused(List<String> done) {
    List<String> failed = done.stream().filter(d -> d.contains(" -> ")).toList();
    return failed.isEmpty() ? "" : " (refused: " + failed + ")";
  }

  private Path log(int i) {
    return dir.resolve(String.format("logs/%02d.log", i));
  }

  /** Runs a random prefix of the workload ({@code cleanUp}: garbage-collect first), then kills. */
  private String workAndKill(CrashDaemon daemon, boolean cleanUp, List<String> done)
      throws InterruptedException {
    try (RawClient relay = new RawClient(layout.relaySocket())) {
      if (cleanUp) {
        done.addAll(workload.cleanUp(relay.channel()));
      }
      done.addAll(workload.run(relay.channel(), random.nextInt(15)));
      return kill(relay.channel(), daemon);
    }
  }

  /** Random runtime latencies, so kills land while calls are under way in the runtime. */
  private void setLatencies() {
    SimHooks hooks = sim.hooks();
    hooks.setLatency("CreateContainer", Duration.ofMillis(5 + random.nextInt(31)));
    hooks.setLatency("UpdateContainerResources", Duration.ofMillis(random.nextInt(11)));
    hooks.setLatency("StartContainer", Duration.ofMillis(random.nextInt(6)));
  }

  private String kill(Channel relay, CrashDaemon daemon) throws InterruptedException {
    double r = random.nextDouble();
    if (r < 0.35) {
      int after = random.nextInt(16);
      Thread.sleep(after);
      daemon.kill();
      return after + " ms after the last answer";
    }
    CrashCall call = workload.issueAsync(relay, r < 0.75);
    int after = random.nextInt(r < 0.75 ? 31 : 11);
    Thread.sleep(after);
    String outcome = call.outcome();
    daemon.kill();
    return after + " ms into " + call.description() + " (" + outcome + ")";
  }

  /**
   * Waits until the cache file and the runtime's update count stay still, then checks the
   * invariants; retries until they hold or {@link #QUIET_TIMEOUT} passes. Returns the milliseconds
   * it took.
   */
  private long awaitInvariants(CrashDaemon daemon) throws Exception {
    long t0 = System.nanoTime();
    List<String> violations = List.of("never quiet");
    while (millisSince(t0) < QUIET_TIMEOUT.toMillis()) {
      String before = quietMark();
      Thread.sleep(50);
      if (before.equals(quietMark())) {
        violations = violations();
        if (violations.isEmpty()) {
          check(daemon, "at start-up");
          return millisSince(t0);
        }
      }
    }
    throw failure(daemon, "invariants violated after the restart: " + violations);
  }

  private List<String> violations() {
    CrashWorld world = CrashWorld.read(truth);
    Map<String, ContainerStatus> statuses = CrashWorld.holdingStatuses(truth, world);
    return CrashInvariants.check(CPUS, "template", world, statuses, layout.cacheFile());
  }

  /** The daemon logged no error and found no corrupt cache file. */
  private void check(CrashDaemon daemon, String when) throws IOException {
    List<String> bad = daemon.output().lines().filter(l -> BAD_LOG_LINE.matcher(l).find()).toList();
    if (!bad.isEmpty() || !corruptFiles().isEmpty()) {
      throw failure(daemon, "unexpected errors " + when + ": " + bad);
    }
    if (!violations().isEmpty()) {
      throw failure(daemon, "invariants violated " + when + ": " + violations());
    }
  }

  /** Files the daemon moved aside as corrupt. */
  private List<Path> corruptFiles() throws IOException {
    try (Stream<Path> files = Files.list(layout.relayDir())) {
      return files.filter(f -> f.getFileName().toString().startsWith("cache.corrupt")).toList();
    }
  }

  /** The size of the cache journal, 0 if there is none. */
  private long journalBytes() throws IOException {
    Path journal = layout.relayDir().resolve(CacheFile.JOURNAL_NAME);
    return Files.exists(journal) ? Files.size(journal) : 0;
  }

  /**
   * The runtime's update count and the cache (file and journal): the daemon is quiet while both
   * stay.
   */
  private String quietMark() {
    String cache =
        CacheFile.current(layout.relayDir()).map(Object::toString).orElse("(none or unreadable)");
    return sim.hooks().callCount("UpdateContainerResources") + " updates, cache " + cache;
  }

  /** One line per container: pod, name, attempt, id, state, cpuset. */
  private String describeRuntime() {
    CrashWorld world = CrashWorld.read(truth);
    Map<String, ContainerStatus> statuses = CrashWorld.holdingStatuses(truth, world);
    StringBuilder text = new StringBuilder();
    for (var c : world.containers()) {
      ContainerStatus s = statuses.get(c.getId());
      text.append(
          String.format(
              "%s %s/%d %s %s cpus=%s%n",
              c.getPodSandboxId().substring(0, 6),
              c.getMetadata().getName(),
              c.getMetadata().getAttempt(),
              c.getId().substring(0, 6),
              c.getState(),
              s == null ? "-" : s.getResources().getLinux().getCpusetCpus()));
    }
    return text.toString();
  }

  private AssertionError failure(CrashDaemon daemon, String what) {
    return new AssertionError(
        what
            + "\n--- the runtime:\n"
            + describeRuntime()
            + "--- the cache file:\n"
            + quietMark()
            + "\n--- the previous daemon: "
            + previous
            + "\n--- this daemon (pid "
            + daemon.pid()
            + "):\n"
            + daemon.output());
  }

  private static long millisSince(long t0) {
    return Duration.ofNanos(System.nanoTime() - t0).toMillis();
  }
}
