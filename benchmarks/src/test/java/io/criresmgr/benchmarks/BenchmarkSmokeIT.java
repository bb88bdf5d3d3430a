package io.criresmgr.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Every JMH benchmark of this module starts, runs and stops once (docs/benchmarks.md, "Smoke run in
 * verify"): a benchmark whose setup no longer works fails the build instead of being found broken
 * the next time someone measures. Each benchmark method runs with every value of its mode-like
 * parameters (route, kind, from, ...), but at the smallest size (16 CPUs, 10 containers, 16 pods,
 * one CPU), in one forked JVM, for one 100 ms iteration without warm-up. Nothing about the timings
 * is asserted; they mean nothing at these settings.
 */
class BenchmarkSmokeIT {
  /** The sizes of the smoke run; every other parameter keeps all its declared values. */
  static final Map<String, String> SMALL =
      Map.of("cpus", "16", "containers", "10", "pods", "16", "count", "1");

  @Test
  void everyBenchmarkRunsOnceAtTheSmallestSize() throws RunnerException {
    List<String> methods = benchmarkMethods();
    assertTrue(methods.size() >= 15, "benchmark list of this module: " + methods);
    OptionsBuilder options = new OptionsBuilder();
    options
        // io.criresmgr.cache: SnapshotEncodeBenchmark, next to the package-private encoder
        .include("io\\.criresmgr\\.(benchmarks|cache)\\..*")
        .forks(1)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(100))
        .timeout(TimeValue.minutes(2))
        .shouldFailOnError(true)
        .verbosity(VerboseMode.NORMAL)
        .jvmArgsAppend("-Xmx512m", "-XX:TieredStopAtLevel=1");
    SMALL.forEach(options::param);
    Options built = options.build();
    Collection<RunResult> results = new Runner(built).run();

    Map<String, Integer> runs = new TreeMap<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark();
      runs.merge(method, 1, Integer::sum);
      assertTrue(
          r.getPrimaryResult().getSampleCount() > 0,
          method + " " + r.getParams() + " ran no operation");
    }
    assertEquals(new TreeSet<>(methods), runs.keySet(), "benchmarks that ran");
  }

  private static List<String> benchmarkMethods() {
    List<String> out = new ArrayList<>();
    for (BenchmarkListEntry e : BenchmarkList.defaultList().getAll(null, List.of())) {
      out.add(e.getUsername());
    }
    return out;
  }
}
