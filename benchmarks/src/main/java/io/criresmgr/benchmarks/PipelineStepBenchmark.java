package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.template.TemplatePolicyProvider;
import io.criresmgr.proxy.core.ResourceManager;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pipeline step alone, without sockets, on a 448-CPU node with 8 memory nodes and the {@code
 * template} policy, with {@link #containers} running containers in the cache (one in five holds an
 * exclusive CPU, the rest share the pool). Measured (sample time, µs, with percentiles):
 *
 * <ul>
 *   <li>{@link #createContainer}: CreateContainer of one more container through the production
 *       {@link ResourceManager} (intercepted service, serialized section, policy, CRI controller,
 *       cache snapshots) served in-process, with a runtime that answers at once ({@link
 *       InstantRuntime}): one allocation as the pipeline makes it. The container is removed again
 *       before the next invocation, outside the measurement;
 *   <li>{@link #createAndRemove}: the same followed by its RemoveContainer: one allocation and one
 *       release;
 *   <li>{@link #policyAllocateRelease}: the policy's allocate and release decisions alone;
 *   <li>{@link #emptyStep}: an empty step of the serialized section submitted from the benchmark
 *       thread, which runs it inline when the pipeline is idle
 *       (docs/adr/0010-steps-inline-and-answers-before-commit.md): the cost of submitting a step
 *       without a thread hand-off.
 * </ul>
 */
@State(Scope.Benchmark)
public class PipelineStepBenchmark extends PolicyBenchmarkBase {
  /** The node: 448 CPUs, 8 memory nodes. */
  static final CpuSet CPUS = CpuSet.range(0, 447);

  static final CpuSet MEMORY_NODES = CpuSet.range(0, 7);

  /** What the measured container asks for. */
  public enum Kind {
    /** Half a CPU: it joins the shared pool, nothing else changes. */
    SHARED,
    /** One whole CPU: it takes a CPU from the pool, so every shared container is updated. */
    EXCLUSIVE
  }

  /** Containers in the cache besides the measured one. */
  @Param({"500"})
  public int containers = 500;

  /** What the measured container asks for. */
  @Param({"SHARED", "EXCLUSIVE"})
  public Kind kind = Kind.SHARED;

  /** Builds the pipeline and fills the cache through it. */
  @Override
  PolicyBench filledBench() throws IOException {
    PolicyContext context = new PolicyContext(Path.of("/"), CPUS, MEMORY_NODES, Map.of(), Map.of());
    PolicyBench bench = PolicyBench.of(new TemplatePolicyProvider(), context);
    new NodeFiller(bench.stub()).fill(containers, containers / 5);
    return bench;
  }

  @Override
  CreateContainerRequest candidate(PolicyBench bench) {
    return NodeFiller.candidate(bench.stub(), kind == Kind.EXCLUSIVE);
  }

  /** One allocation through the whole pipeline, the runtime answering at once. */
  @Benchmark
  public String createContainer(Created created) {
    created.id = bench.stub().createContainer(candidate).getContainerId();
    return created.id;
  }

  /** The container {@link #createContainer} made, removed before the next invocation. */
  @State(Scope.Thread)
  public static class Created {
    String id = "";

    /** Removes the container of the previous invocation (not measured). */
    @Setup(Level.Invocation)
    public void removePrevious(PipelineStepBenchmark benchmark) {
      if (!id.isEmpty()) {
        RemoveContainerRequest remove =
            RemoveContainerRequest.newBuilder().setContainerId(id).build();
        benchmark.bench.stub().removeContainer(remove);
        id = "";
      }
    }
  }

  /** One empty step of the serialized section, inline on this thread when the pipeline is idle. */
  @Benchmark
  public long emptyStep() {
    return bench.pipeline().manager().pipeline().run(s -> s.stamp()).join();
  }
}
