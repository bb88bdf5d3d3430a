package io.criresmgr.benchmarks;

import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bytes allocated and CPU time per {@link PolicyBenchmarkBase#createAndRemove} by thread, and the
 * operations per young collection: {@code POLICY KIND [CONTAINERS] [WARM-UP] [MEASURED]}, POLICY
 * {@code topology-aware} (KIND {@code SHARED}, {@code EXCLUSIVE}) or {@code balloons} (KIND {@code
 * PER_NAMESPACE}, {@code DYNAMIC}), 448 CPUs. Steps run inline on the calling thread ({@code main})
 * when the pipeline is idle, so its bytes are the decision's and the re-assigned containers'; they
 * hardly depend on the machine's load, unlike JMH's latencies and JMH's all-thread bytes (the
 * saver's share of those falls as the rate rises). Run it with the daemon's flags ({@code
 * -XX:+UseSerialGC -Xms16m -Xmx512m}) for the collections (docs/benchmarks.md, "Issue 20:
 * re-assigned containers").
 */
public final class PolicyCostMain {
  private PolicyCostMain() {}

  /** Runs and prints the report; exits 2 with a message on a bad command line. */
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args.length < 2 || args.length > 5) {
      System.err.println(
          "policy cost: usage: POLICY KIND [CONTAINERS] [WARM-UP OPERATIONS] [MEASURED OPERATIONS]");
      System.exit(2);
    }
    int containers = args.length > 2 ? Integer.parseInt(args[2]) : 500;
    int warm = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
    int measured = args.length > 4 ? Integer.parseInt(args[4]) : 2000;
    PolicyBenchmarkBase b = bench(args[0], args[1], containers);
    Map<String, ThreadCostMain.Cost> costs = new TreeMap<>();
    long collections = measure(b, warm, measured, costs);
    out.printf(
        Locale.ROOT,
        "%s %s, %d containers, %d operations, %s operations per young collection, per operation:%n",
        args[0],
        args[1],
        containers,
        measured,
        collections == 0 ? "all" : String.valueOf(measured / collections));
    costs.forEach(
        (name, c) ->
            out.printf(
                Locale.ROOT, "  %-32s %9d B %9.1f µs CPU%n", name, c.bytes(), c.cpuNanos() / 1e3));
    System.exit(0);
  }

  /** The benchmark of {@code policy} and {@code kind} on 448 CPUs, not yet started. */
  static PolicyBenchmarkBase bench(String policy, String kind, int containers) {
    switch (policy) {
      case "topology-aware" -> {
        TopologyAwareBenchmark t = new TopologyAwareBenchmark();
        t.cpus = "448";
        t.containers = containers;
        t.kind = PipelineStepBenchmark.Kind.valueOf(kind);
        return t;
      }
      case "balloons" -> {
        BalloonsBenchmark t = new BalloonsBenchmark();
        t.cpus = "448";
        t.containers = containers;
        t.kind = BalloonsBenchmark.Kind.valueOf(kind);
        return t;
      }
      default ->
          throw new IllegalArgumentException(
              "POLICY: \"" + policy + "\", expected topology-aware or balloons");
    }
  }

  /**
   * Starts {@code b}, warms up with {@code warm} operations, measures {@code measured} into {@code
   * costs} (thread groups with at least 50 bytes or 1 µs per operation, and {@code TOTAL}), stops
   * it; returns the young collections meanwhile.
   */
  static long measure(
      PolicyBenchmarkBase b, int warm, int measured, Map<String, ThreadCostMain.Cost> costs)
      throws Exception {
    b.start();
    try {
      for (int i = 0; i < warm; i++) {
        b.createAndRemove();
      }
      long collections = youngCollections();
      Map<String, long[]> before = ThreadCostMain.threads();
      for (int i = 0; i < measured; i++) {
        b.createAndRemove();
      }
      Map<String, long[]> after = ThreadCostMain.threads();
      collections = youngCollections() - collections;
      costs.putAll(ThreadCostMain.perOperation(before, after, measured));
      return collections;
    } finally {
      b.stop();
    }
  }

  private static long youngCollections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      // serial: "Copy" (young) and "MarkSweepCompact"; G1: "G1 Young Generation" and "G1 Old ..."
      if (!gc.getName().contains("MarkSweep") && !gc.getName().contains("Old")) {
        n += Math.max(0, gc.getCollectionCount());
      }
    }
    return n;
  }
}
