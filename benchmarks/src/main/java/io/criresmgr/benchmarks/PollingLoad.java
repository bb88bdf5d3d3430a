package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.ContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ListContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Kubelet's steady load on a node, against another process (docs/benchmarks.md, "Kubelet-like
 * polling"): creates and starts {@link Settings#pods} pods and {@link Settings#containers}
 * containers through a CRI socket, then once a second lists pods and containers (PLEG's relist) and
 * asks for their statistics, and samples the given process's CPU time and resident memory ({@link
 * ProcessSample}) around the polling window and after a quiet period without calls.
 */
public final class PollingLoad {
  private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long CALL_DEADLINE_SECONDS = 30;

  /** How statistics are asked for each second. */
  public enum StatsCalls {
    /** ListContainerStats and ListPodSandboxStats, one call each (kubelet's CRI stats provider). */
    LIST,
    /** ContainerStats for every container and PodSandboxStats for every pod: an upper bound. */
    EACH
  }

  /**
   * What to create and how long to poll.
   *
   * @param pods pods to create (kubelet's default limit per node is 110)
   * @param containers containers to create, spread round-robin over the pods
   * @param warmup polling before the measured window (the JIT compiles the polled paths)
   * @param poll the measured polling window
   * @param quiet the window without calls after polling (idle CPU, memory at rest)
   * @param stats how statistics are asked for
   */
  public record Settings(
      int pods, int containers, Duration warmup, Duration poll, Duration quiet, StatsCalls stats) {
    /** Checks the values; the messages name the setting, the value and what is allowed. */
    public Settings {
      if (pods < 1) {
        throw new IllegalArgumentException("pods: " + pods + " is not allowed, must be >= 1");
      }
      if (containers < 0) {
        throw new IllegalArgumentException(
            "containers: " + containers + " is not allowed, must be >= 0");
      }
      requireNonNegative("warmup", warmup);
      requireNonNegative("poll", poll);
      requireNonNegative("quiet", quiet);
    }

    private static void requireNonNegative(String name, Duration value) {
      if (value.isNegative()) {
        throw new IllegalArgumentException(
            name + ": " + value.toSeconds() + " s is not allowed, must be >= 0");
      }
    }
  }

  /** Item counts of one polling round's replies. */
  public record Listed(int pods, int containers, int containerStats, int podStats) {}

  /**
   * The figures of one run.
   *
   * @param creating wall time of creating and starting everything
   * @param created the process right after the creates
   * @param rounds polling rounds in the measured window
   * @param late rounds in the window that took longer than a second
   * @param listed the last round's item counts
   * @param pollStart the process when the measured window started
   * @param pollEnd the process when it ended
   * @param pollWall the measured window's wall time
   * @param quietEnd the process after the quiet period
   * @param quietWall the quiet period's wall time
   */
  public record Report(
      Duration creating,
      ProcessSample created,
      int rounds,
      int late,
      Listed listed,
      ProcessSample pollStart,
      ProcessSample pollEnd,
      Duration pollWall,
      ProcessSample quietEnd,
      Duration quietWall) {
    /** The process's CPU over the polling window, in percent of one core. */
    public double pollingCpuPercent() {
      return pollEnd.cpuPercentSince(pollStart, pollWall);
    }

    /** The process's CPU over the quiet period, in percent of one core. */
    public double quietCpuPercent() {
      return quietEnd.cpuPercentSince(pollEnd, quietWall);
    }

    /** The report as {@link PollingLoadMain} prints it. */
    public List<String> lines() {
      return List.of(
          String.format("created and started in %.1f s", creating.toMillis() / 1000.0),
          "after the creates: " + created.memory(),
          String.format(
              "polled %d rounds in %.1f s (%d late); last round listed %s",
              rounds, pollWall.toMillis() / 1000.0, late, listed),
          String.format(
              "CPU while polling: %d ms in %.1f s = %.2f%% of a core",
              pollEnd.cpu().minus(pollStart.cpu()).toMillis(),
              pollWall.toMillis() / 1000.0,
              pollingCpuPercent()),
          "after polling: " + pollEnd.memory(),
          String.format(
              "CPU while quiet: %d ms in %.1f s = %.2f%% of a core",
              quietEnd.cpu().minus(pollEnd.cpu()).toMillis(),
              quietWall.toMillis() / 1000.0,
              quietCpuPercent()),
          "after the quiet period: " + quietEnd.memory());
    }
  }

  private final RuntimeServiceBlockingStub stub;
  private final long pid;
  private final Settings settings;
  private final Consumer<String> log;
  private final List<String> podIds = new ArrayList<>();
  private final List<String> containerIds = new ArrayList<>();

  private PollingLoad(
      RuntimeServiceBlockingStub stub, long pid, Settings settings, Consumer<String> log) {
    this.stub = stub;
    this.pid = pid;
    this.settings = settings;
    this.log = log;
  }

  /**
   * Creates the pods and containers through {@code stub}, polls, waits, and returns the figures of
   * process {@code pid} (the daemon serving {@code stub}); progress goes to {@code log}.
   */
  public static Report run(
      RuntimeServiceBlockingStub stub, long pid, Settings settings, Consumer<String> log) {
    return new PollingLoad(stub, pid, settings, log).run();
  }

  /**
   * Creates the pods and containers of {@code settings} through {@code stub} and returns the load,
   * ready for {@link #round()}s back to back (the durations of {@code settings} are not used).
   */
  static PollingLoad created(
      RuntimeServiceBlockingStub stub, Settings settings, Consumer<String> log) {
    PollingLoad load = new PollingLoad(stub, ProcessHandle.current().pid(), settings, log);
    load.createAll();
    return load;
  }

  private Report run() {
    long t0 = System.nanoTime();
    createAll();
    Duration creating = Duration.ofNanos(System.nanoTime() - t0);
    ProcessSample created = ProcessSample.of(pid);
    log.accept("warming up for " + settings.warmup().toSeconds() + " s");
    pollFor(settings.warmup());
    log.accept("polling for " + settings.poll().toSeconds() + " s");
    ProcessSample pollStart = ProcessSample.of(pid);
    long t1 = System.nanoTime();
    Polled polled = pollFor(settings.poll());
    ProcessSample pollEnd = ProcessSample.of(pid);
    long t2 = System.nanoTime();
    log.accept("quiet for " + settings.quiet().toSeconds() + " s");
    sleepUntil(t2 + settings.quiet().toNanos());
    ProcessSample quietEnd = ProcessSample.of(pid);
    Duration quietWall = Duration.ofNanos(System.nanoTime() - t2);
    return new Report(
        creating,
        created,
        polled.rounds,
        polled.late,
        polled.listed,
        pollStart,
        pollEnd,
        Duration.ofNanos(t2 - t1),
        quietEnd,
        quietWall);
  }

  /** RunPodSandbox for every pod, then CreateContainer and StartContainer for every container. */
  private void createAll() {
    List<PodSandboxConfig> configs = new ArrayList<>();
    for (int i = 0; i < settings.pods(); i++) {
      String name = "poll-" + i;
      configs.add(CriRequests.podConfig(name));
      podIds.add(call().runPodSandbox(CriRequests.runPod(name)).getPodSandboxId());
    }
    for (int j = 0; j < settings.containers(); j++) {
      int pod = j % settings.pods();
      var create =
          CriRequests.createContainer(
              podIds.get(pod), configs.get(pod), "c" + j, CriRequests.bestEffort());
      String id = call().createContainer(create).getContainerId();
      call().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
      containerIds.add(id);
    }
    log.accept(
        "created " + podIds.size() + " pods and " + containerIds.size() + " running containers");
  }

  /** Rounds, late rounds and the last round's counts of one polling window. */
  private record Polled(int rounds, int late, Listed listed) {}

  /** One round a second for {@code window} (none for an empty window). */
  private Polled pollFor(Duration window) {
    long start = System.nanoTime();
    long next = start;
    int rounds = 0;
    int late = 0;
    Listed listed = new Listed(0, 0, 0, 0);
    while (next - start < window.toNanos()) {
      listed = round();
      rounds++;
      next += SECOND_NANOS;
      if (System.nanoTime() > next) {
        late++;
      }
      sleepUntil(next);
    }
    return new Polled(rounds, late, listed);
  }

  /** PLEG's relist (all pods, all containers) and the statistics of everything. */
  Listed round() {
    int pods = call().listPodSandbox(ListPodSandboxRequest.getDefaultInstance()).getItemsCount();
    int containers =
        call().listContainers(ListContainersRequest.getDefaultInstance()).getContainersCount();
    return switch (settings.stats()) {
      case LIST ->
          new Listed(
              pods,
              containers,
              call()
                  .listContainerStats(ListContainerStatsRequest.getDefaultInstance())
                  .getStatsCount(),
              call()
                  .listPodSandboxStats(ListPodSandboxStatsRequest.getDefaultInstance())
                  .getStatsCount());
      case EACH -> new Listed(pods, containers, eachContainerStats(), eachPodStats());
    };
  }

  private int eachContainerStats() {
    int n = 0;
    for (String id : containerIds) {
      var request = ContainerStatsRequest.newBuilder().setContainerId(id).build();
      n += call().containerStats(request).hasStats() ? 1 : 0;
    }
    return n;
  }

  private int eachPodStats() {
    int n = 0;
    for (String id : podIds) {
      var request = PodSandboxStatsRequest.newBuilder().setPodSandboxId(id).build();
      n += call().podSandboxStats(request).hasStats() ? 1 : 0;
    }
    return n;
  }

  /** The stub with a fresh deadline for one call. */
  private RuntimeServiceBlockingStub call() {
    return stub.withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  private static void sleepUntil(long nanoTime) {
    for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while polling");
      }
    }
  }
}
