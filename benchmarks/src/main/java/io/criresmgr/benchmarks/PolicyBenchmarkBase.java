package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.cache.NodeCache;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The measurements the policy benchmarks share, on the {@link PolicyBench} and candidate a subclass
 * makes for the trial: {@link #policyAllocateRelease}, {@link #saveDecision} and {@link
 * #createAndRemove}. The run settings here (one fork, 3 × 2 s warm-up, 5 × 2 s measured, sample
 * time in µs) are inherited. The fork runs with the daemon's collector and heap as
 * bin/cri-resmgr-launch.sh starts it (serial collector, 16 MB initial heap), since the p99 target
 * is the daemon's: with the JVM's defaults (G1, a large young generation) a collection came every
 * 50-420 createAndRemove operations, with the daemon's every 8-14 (docs/benchmarks.md, "Issue 20:
 * per-decision work of EXCLUSIVE and balloons"). {@code -jvmArgs} on the command line replaces
 * these flags; {@code -jvmArgsAppend} adds to them. With flags given here, the fork no longer
 * inherits the arguments of the JVM that runs JMH (its {@code -Xmx}, {@code -D...}): pass those
 * with {@code -jvmArgsAppend}.
 */
@State(Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgs = {"-XX:+UseSerialGC", "-Xms16m", "-Xmx512m", "-Xss512k"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class PolicyBenchmarkBase {
  /** The policy and pipeline, from {@link #filledBench}. */
  PolicyBench bench;

  /** The measured container's CreateContainer. */
  CreateContainerRequest candidate;

  /** The policy's inputs for the measured container. */
  PolicyFixture decisions;

  /** The node {@link #policyAllocateReleaseApplied} changes: the trial's, without the candidate. */
  NodeCache live;

  /** Builds the bench, then the candidate and its decisions. */
  @Setup(Level.Trial)
  public void start() throws IOException {
    bench = filledBench();
    candidate = candidate(bench);
    decisions = bench.decisions(candidate);
    live = NodeCache.restore(decisions.beforeAllocate().snapshot());
    live.removeContainer(decisions.toAllocate().cacheId());
  }

  /** The policy and pipeline, the trial's other containers already in its cache. */
  abstract PolicyBench filledBench() throws IOException;

  /** The measured container's CreateContainer on {@code bench}. */
  abstract CreateContainerRequest candidate(PolicyBench bench);

  /** The saves of {@link #saveDecision}, made at its first call. */
  @Nullable DecisionSaves saves;

  /** Stops the pipeline and deletes its directory (and {@link #saveDecision}'s files). */
  @TearDown(Level.Trial)
  public void stop() throws IOException {
    bench.stop();
    if (saves != null) {
      System.out.printf("%nsaveDecision: %s%n", saves.summary());
      saves.close();
    }
  }

  /** The policy's allocate and release decisions for the same container, nothing applied. */
  @Benchmark
  public void policyAllocateRelease(Blackhole bh) {
    bench.allocateRelease(decisions, bh);
  }

  /**
   * The policy's allocate and release decisions, each applied to one node as the pipeline applies
   * them, so every decision starts from the state the policy produced last (see {@link
   * PolicyBench#allocateReleaseApplied}).
   */
  @Benchmark
  public void policyAllocateReleaseApplied(Blackhole bh) {
    bench.allocateReleaseApplied(live, decisions, bh);
  }

  /**
   * One save of the cache file after one decision: the node before and after the allocation saved
   * in turn, each save the journal batch of one decision, now and then a whole write ({@link
   * DecisionSaves}; docs/benchmarks.md, "Issue 20: journal patches inside policy data").
   * Single-threaded and one decision per save, so its bytes per operation do not depend on the
   * machine's load as {@link #createAndRemove}'s saver share does.
   */
  @Benchmark
  public void saveDecision() {
    DecisionSaves s = saves;
    if (s == null) {
      s = new DecisionSaves(bench.allocationStates(decisions));
      saves = s;
    }
    s.saveNext();
  }

  /** One allocation and one release through the whole pipeline, the runtime answering at once. */
  @Benchmark
  public String createAndRemove() {
    return bench.createAndRemove(candidate);
  }
}
