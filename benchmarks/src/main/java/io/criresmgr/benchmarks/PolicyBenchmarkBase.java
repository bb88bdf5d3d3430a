package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The measurements the policy benchmarks share, on the {@link PolicyBench}, candidate and decisions
 * a subclass's trial setup makes: {@link #policyAllocateRelease} and {@link #createAndRemove}. The
 * run settings here (one fork, 3 × 2 s warm-up, 5 × 2 s measured, sample time in µs) are inherited.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class PolicyBenchmarkBase {
  /** The policy and pipeline, set by the subclass's setup. */
  PolicyBench bench;

  /** The measured container's CreateContainer. */
  CreateContainerRequest candidate;

  /** The policy's inputs for the measured container. */
  PolicyFixture decisions;

  /** Stops the pipeline and deletes its directory. */
  @TearDown(Level.Trial)
  public void stop() throws IOException {
    bench.stop();
  }

  /** The policy's allocate and release decisions for the same container, nothing applied. */
  @Benchmark
  public void policyAllocateRelease(Blackhole bh) {
    bench.allocateRelease(decisions, bh);
  }

  /** One allocation and one release through the whole pipeline, the runtime answering at once. */
  @Benchmark
  public String createAndRemove() {
    return bench.createAndRemove(candidate);
  }
}
