package io.criresmgr.benchmarks;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Bytes allocated and CPU time per polling round of {@link PollingLoad} (ListPodSandbox,
 * ListContainers, ListContainerStats, ListPodSandboxStats), by thread, with the rounds back to back
 * in this JVM: {@code ROUTE [PODS] [CONTAINERS] [WARM-UP ROUNDS] [MEASURED ROUNDS]}. The simulated
 * runtime runs here too, so compare a route's relay threads ({@code relay-io}, {@code
 * cri-pipeline}) with {@code BARE_RELAY}'s: the floor of a gRPC relay of the same calls. Threads
 * are grouped as {@link ThreadCostMain} groups them (docs/benchmarks.md, "Issue 20: the polled
 * relay").
 */
public final class PollCostMain {
  private PollCostMain() {}

  /** Runs and prints the report; exits 2 with a message on a bad command line. */
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args.length < 1 || args.length > 5) {
      System.err.println(
          "poll cost: usage: ROUTE [PODS] [CONTAINERS] [WARM-UP ROUNDS] [MEASURED ROUNDS]");
      System.exit(2);
    }
    Route route = Route.valueOf(args[0]);
    int pods = args.length > 1 ? Integer.parseInt(args[1]) : 110;
    int containers = args.length > 2 ? Integer.parseInt(args[2]) : 500;
    int warm = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
    int measured = args.length > 4 ? Integer.parseInt(args[4]) : 1000;
    Map<String, ThreadCostMain.Cost> costs = measure(route, pods, containers, warm, measured);
    out.printf(
        Locale.ROOT,
        "%s, %d pods, %d containers, %d rounds, per round:%n",
        route,
        pods,
        containers,
        measured);
    costs.forEach(
        (name, c) ->
            out.printf(
                Locale.ROOT, "  %-32s %9d B %9.1f µs CPU%n", name, c.bytes(), c.cpuNanos() / 1e3));
    System.exit(0);
  }

  /**
   * Creates {@code pods} and {@code containers} through {@code route} in front of the simulated
   * runtime, polls {@code warm} rounds, then measures {@code measured}; the thread groups that
   * allocated at least 50 bytes or used 1 µs per round, and {@code TOTAL}.
   */
  static Map<String, ThreadCostMain.Cost> measure(
      Route route, int pods, int containers, int warm, int measured) throws Exception {
    Path dir = Files.createTempDirectory("crb");
    var settings =
        new PollingLoad.Settings(
            pods,
            containers,
            Duration.ZERO,
            Duration.ZERO,
            Duration.ZERO,
            PollingLoad.StatsCalls.LIST);
    try (Testbed bed =
        Testbed.start(route, dir, new SimBackend(), PipelineBenchmark.daemonConfig(false))) {
      PollingLoad load = PollingLoad.created(bed.stub(), settings, line -> {});
      for (int i = 0; i < warm; i++) {
        load.round();
      }
      Map<String, long[]> before = ThreadCostMain.threads();
      PollingLoad.Listed listed = new PollingLoad.Listed(0, 0, 0, 0);
      for (int i = 0; i < measured; i++) {
        listed = load.round();
      }
      Map<String, long[]> after = ThreadCostMain.threads();
      if (listed.pods() != pods || listed.containers() != containers) {
        throw new IllegalStateException("the last round listed " + listed);
      }
      return ThreadCostMain.perOperation(before, after, measured);
    } finally {
      RelayBenchmark.deleteTree(dir);
    }
  }
}
