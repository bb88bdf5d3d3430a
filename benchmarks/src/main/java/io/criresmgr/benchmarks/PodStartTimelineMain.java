package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.grpc.unix.Shutdown;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Where a burst of concurrent pod starts ({@link PodStartBenchmark}) spends its time: {@code ROUTE
 * [PODS] [WARM-UP BURSTS] [MEASURED BURSTS] [LATENCY MS]}. Prints the mean burst, for each call
 * (RunPodSandbox, CreateContainer, StartContainer) the mean latency of the fastest to the slowest
 * of the burst's calls, and the CPU and bytes per burst by thread (with the untimed stop and remove
 * of the burst's pods), as {@link ThreadCostMain} counts them (docs/benchmarks.md, "Issue 20: idle
 * wake-ups").
 */
public final class PodStartTimelineMain {
  private PodStartTimelineMain() {}

  /** The calls of a pod start, in order. */
  static final List<String> CALLS = List.of("RunPodSandbox", "CreateContainer", "StartContainer");

  /**
   * What {@link #measure} found.
   *
   * @param burstMillis the mean burst
   * @param latencies per call, the mean latency in ms of the fastest to the slowest call of a burst
   * @param threads per thread group, CPU and bytes per burst
   */
  record Timeline(
      double burstMillis, List<double[]> latencies, Map<String, ThreadCostMain.Cost> threads) {}

  /** One pod start: the pod's id, and the start and end of each call ({@code System.nanoTime}). */
  private static final class Started {
    private final String podId;
    private final long[] nanos;

    Started(String podId, long[] nanos) {
      this.podId = podId;
      this.nanos = nanos;
    }

    String podId() {
      return podId;
    }

    /** The latency of call {@code c} of {@link #CALLS} in ms. */
    double millis(int c) {
      return (nanos[2 * c + 1] - nanos[2 * c]) / 1e6;
    }
  }

  /** Runs and prints the report; exits 2 with a message on a bad command line. */
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args.length < 1 || args.length > 5) {
      System.err.println(
          "pod start timeline: usage: ROUTE [PODS] [WARM-UP BURSTS] [MEASURED BURSTS] [LATENCY MS]");
      System.exit(2);
    }
    Route route = Route.valueOf(args[0]);
    int pods = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int warm = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int bursts = args.length > 3 ? Integer.parseInt(args[3]) : 100;
    int latency = args.length > 4 ? Integer.parseInt(args[4]) : 50;
    Timeline t = measure(route, pods, warm, bursts, Duration.ofMillis(latency));
    out.printf(
        Locale.ROOT,
        "%s, %d pods, %d ms per runtime call, %d bursts: mean burst %.1f ms%n",
        route,
        pods,
        latency,
        bursts,
        t.burstMillis());
    for (int c = 0; c < CALLS.size(); c++) {
      StringBuilder line = new StringBuilder();
      for (double ms : t.latencies().get(c)) {
        line.append(String.format(Locale.ROOT, " %.1f", ms));
      }
      out.printf(Locale.ROOT, "  %-16s ms, fastest to slowest:%s%n", CALLS.get(c), line);
    }
    out.println("  per burst, by thread:");
    t.threads()
        .forEach(
            (name, c) ->
                out.printf(
                    Locale.ROOT,
                    "    %-32s %9d B %9.1f µs CPU%n",
                    name,
                    c.bytes(),
                    c.cpuNanos() / 1e3));
    System.exit(0);
  }

  /** Warms up with {@code warm} bursts of {@code pods} pod starts, then measures {@code bursts}. */
  static Timeline measure(Route route, int pods, int warm, int bursts, Duration latency)
      throws Exception {
    Path dir = Files.createTempDirectory("crb");
    SimBackend sim = new SimBackend();
    Testbed bed = Testbed.start(route, dir, sim, PipelineBenchmark.daemonConfig(false));
    ExecutorService clients = Executors.newFixedThreadPool(pods);
    try {
      double[][] sums = new double[CALLS.size()][pods];
      double total = 0;
      Map<String, long[]> before = ThreadCostMain.threads();
      for (int b = 0; b < warm + bursts; b++) {
        if (b == warm) {
          before = ThreadCostMain.threads();
        }
        sim.forget(latency);
        long start = System.nanoTime();
        List<Future<Started>> futures = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
          String name = "b" + b + "-p" + i;
          futures.add(clients.submit(() -> startPod(bed.stub(), name)));
        }
        List<Started> started = new ArrayList<>();
        for (Future<Started> f : futures) {
          started.add(f.get());
        }
        long end = System.nanoTime();
        sim.forget(Duration.ZERO);
        removePods(bed.stub(), started);
        if (b >= warm) {
          total += (end - start) / 1e6;
          addSorted(sums, started);
        }
      }
      Map<String, ThreadCostMain.Cost> threads =
          ThreadCostMain.perOperation(before, ThreadCostMain.threads(), bursts);
      List<double[]> latencies = new ArrayList<>();
      for (double[] call : sums) {
        latencies.add(Arrays.stream(call).map(sum -> sum / bursts).toArray());
      }
      return new Timeline(total / bursts, latencies, threads);
    } finally {
      Shutdown.now(Duration.ofSeconds(10), Shutdown.of(clients));
      bed.close();
      RelayBenchmark.deleteTree(dir);
    }
  }

  /** Adds each call's latencies of one burst, sorted, to {@code sums}. */
  private static void addSorted(double[][] sums, List<Started> started) {
    for (int c = 0; c < CALLS.size(); c++) {
      double[] ms = new double[started.size()];
      for (int i = 0; i < ms.length; i++) {
        ms[i] = started.get(i).millis(c);
      }
      Arrays.sort(ms);
      for (int i = 0; i < ms.length; i++) {
        sums[c][i] += ms[i];
      }
    }
  }

  private static void removePods(RuntimeServiceBlockingStub stub, List<Started> started) {
    for (Started s : started) {
      String podId = s.podId();
      stub.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
      stub.removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
    }
  }

  /** RunPodSandbox, CreateContainer, StartContainer, as {@link PodStartBenchmark} makes them. */
  private static Started startPod(RuntimeServiceBlockingStub stub, String name) {
    long[] t = new long[2 * CALLS.size()];
    PodSandboxConfig pod = CriRequests.podConfig(name);
    t[0] = System.nanoTime();
    String podId = stub.runPodSandbox(CriRequests.runPod(name)).getPodSandboxId();
    t[1] = System.nanoTime();
    var create = CriRequests.createContainer(podId, pod, "app", CriRequests.wholeCpus(1));
    t[2] = System.nanoTime();
    String id = stub.createContainer(create).getContainerId();
    t[3] = System.nanoTime();
    t[4] = t[3];
    stub.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    t[5] = System.nanoTime();
    return new Started(podId, t);
  }
}
