package io.criresmgr.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bytes allocated and CPU time per {@link PipelineBenchmark#createContainer} (with the untimed
 * RemoveContainer before it), by thread: {@code ROUTE [WARM-UP OPERATIONS] [MEASURED OPERATIONS]}.
 * The bytes hardly depend on the machine's load, unlike JMH's latencies; the threads show where the
 * work runs (cri-pipeline, relay-io, ...). Threads are grouped by name without their trailing
 * numbers; threads that ended meanwhile are not counted (docs/benchmarks.md, "Issue 20: the
 * intercepted path, a third time").
 */
public final class ThreadCostMain {
  private ThreadCostMain() {}

  /**
   * Per thread group: bytes and CPU nanoseconds per operation.
   *
   * @param bytes allocated bytes per operation
   * @param cpuNanos CPU time per operation
   */
  record Cost(long bytes, long cpuNanos) {}

  /** Runs and prints the report; exits 2 with a message on a bad command line. */
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args.length < 1 || args.length > 3) {
      System.err.println("thread cost: usage: ROUTE [WARM-UP OPERATIONS] [MEASURED OPERATIONS]");
      System.exit(2);
    }
    Route route = Route.valueOf(args[0]);
    int warm = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
    int measured = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
    Map<String, Cost> costs = measure(route, warm, measured);
    out.printf(Locale.ROOT, "%s, %d operations, per operation:%n", route, measured);
    costs.forEach(
        (name, c) ->
            out.printf(
                Locale.ROOT, "  %-32s %9d B %9.1f µs CPU%n", name, c.bytes(), c.cpuNanos() / 1e3));
    System.exit(0);
  }

  /**
   * Warms up with {@code warm} operations, then measures {@code measured}; the thread groups that
   * allocated at least 50 bytes or used 1 µs per operation, and {@code TOTAL}.
   */
  static Map<String, Cost> measure(Route route, int warm, int measured) throws Exception {
    PipelineBenchmark b = new PipelineBenchmark();
    b.route = route;
    b.start();
    try {
      for (int i = 0; i < warm; i++) {
        b.removeCreated();
        b.createContainer();
      }
      Map<String, long[]> before = threads();
      for (int i = 0; i < measured; i++) {
        b.removeCreated();
        b.createContainer();
      }
      return perOperation(before, threads(), measured);
    } finally {
      b.stop();
    }
  }

  /**
   * Per thread group, the difference between two {@link #threads()} over {@code operations}: the
   * groups that allocated at least 50 bytes or used 1 µs per operation, and {@code TOTAL}.
   */
  static Map<String, Cost> perOperation(
      Map<String, long[]> before, Map<String, long[]> after, int operations) {
    Map<String, Cost> costs = new TreeMap<>();
    long bytes = 0;
    long cpu = 0;
    for (Map.Entry<String, long[]> e : after.entrySet()) {
      long[] was = before.getOrDefault(e.getKey(), new long[2]);
      long b1 = (e.getValue()[0] - was[0]) / operations;
      long c1 = (e.getValue()[1] - was[1]) / operations;
      if (b1 >= 50 || c1 >= 1000) {
        costs.put(e.getKey(), new Cost(b1, c1));
        bytes += b1;
        cpu += c1;
      }
    }
    costs.put("TOTAL", new Cost(bytes, cpu));
    return costs;
  }

  /** Allocated bytes and CPU nanoseconds of the live threads, by name without trailing numbers. */
  static Map<String, long[]> threads() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Map<String, long[]> groups = new TreeMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      long[] sums =
          groups.computeIfAbsent(t.getName().replaceAll("(-\\d+)+$", ""), k -> new long[2]);
      sums[0] += Math.max(0, mx.getThreadAllocatedBytes(t.getId()));
      sums[1] += Math.max(0, mx.getThreadCpuTime(t.getId()));
    }
    return groups;
  }
}
