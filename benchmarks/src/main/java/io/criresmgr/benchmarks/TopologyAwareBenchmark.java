package io.criresmgr.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import io.criresmgr.proxy.core.ResourceManager;
import java.io.IOException;
import java.util.Map;
import java.util.TreeSet;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The {@code topology-aware} policy's allocation and release against container count and topology
 * size, on a generated fake sysfs with {@code ReservedResources: {CPU: 750m}}. Before the run,
 * {@link #containers} containers are created and started through the pipeline: one in five
 * Guaranteed with one whole CPU (at most a quarter of the CPUs), the others Burstable with 10m CPU
 * (so that 500 of them fit on 16 CPUs), 8 MiB each. The measured container is Burstable with half a
 * CPU ({@code SHARED}) or Guaranteed with one whole CPU ({@code EXCLUSIVE}). Measured (sample time,
 * µs):
 *
 * <ul>
 *   <li>{@link #policyAllocateRelease}: the policy's allocate and release decisions for one more
 *       container, nothing applied, on node states restored from a cache snapshot: the policy
 *       parses its grants from the policy data first, as after a restart (in the pipeline it reuses
 *       the state it produced last, see {@code StateMemo});
 *   <li>{@link #createAndRemove}: its CreateContainer and RemoveContainer through the production
 *       {@link ResourceManager} in-process, the runtime answering at once.
 * </ul>
 */
@State(Scope.Benchmark)
public class TopologyAwareBenchmark extends PolicyBenchmarkBase {
  /** Topologies by CPU count: built-in specs (docs/topology.md). */
  static final Map<String, String> TOPOLOGIES =
      Map.of("16", "n4c16", "128", "n4c128", "448", "n8c448", "4096", "s8c4096");

  /** The topology spec of {@code cpus}, a key of {@link #TOPOLOGIES}. */
  static String topology(String cpus) {
    String spec = TOPOLOGIES.get(cpus);
    if (spec == null) {
      throw new IllegalArgumentException(
          "cpus: no topology for "
              + cpus
              + ", expected one of "
              + new TreeSet<>(TOPOLOGIES.keySet()));
    }
    return spec;
  }

  /** The node's CPU count, a key of {@link #TOPOLOGIES}. */
  @Param({"16", "448", "4096"})
  public String cpus = "448";

  /** Containers in the cache besides the measured one. */
  @Param({"10", "100", "500"})
  public int containers = 100;

  /** What the measured container asks for. */
  @Param({"SHARED", "EXCLUSIVE"})
  public PipelineStepBenchmark.Kind kind = PipelineStepBenchmark.Kind.SHARED;

  /**
   * The policy's {@code UnlimitedBurstable}: where the Burstable containers without a CPU limit
   * (all the shared ones here) go. The default, {@code package}, puts them in socket pools, so an
   * exclusive grant changes the CPUs of every one in its socket; {@code numa} keeps them on NUMA
   * nodes (docs/benchmarks.md, "Issue 18: exported resources").
   */
  @Param({"package"})
  public String unlimitedBurstable = "package";

  /** Generates the topology, builds the pipeline and fills the cache through it. */
  @Override
  PolicyBench filledBench() throws IOException {
    PolicyBench bench =
        PolicyBench.onFakeSysfs(
            topology(cpus),
            new TopologyAwarePolicyProvider(),
            "750m",
            JsonNodeFactory.instance.objectNode().put("UnlimitedBurstable", unlimitedBurstable));
    int exclusive = Math.min(containers / 5, bench.context().onlineCpus().size() / 4);
    LinuxContainerResources small = CriRequests.shared().toBuilder().setCpuShares(10).build();
    for (int i = 0; i < containers; i++) {
      boolean whole = i < exclusive;
      bench.run(create(bench, "pod-" + i, whole, whole ? CriRequests.wholeCpus(1) : small));
    }
    return bench;
  }

  @Override
  CreateContainerRequest candidate(PolicyBench bench) {
    boolean whole = kind == PipelineStepBenchmark.Kind.EXCLUSIVE;
    return create(
        bench, "candidate", whole, whole ? CriRequests.wholeCpus(1) : CriRequests.shared());
  }

  /**
   * Runs pod {@code pod} on {@code bench} and returns a CreateContainer of its container {@code
   * c0}, 8 MiB.
   */
  private static CreateContainerRequest create(
      PolicyBench bench, String pod, boolean guaranteed, LinuxContainerResources resources) {
    return bench.create(PolicyBench.podConfig(pod, guaranteed), resources);
  }
}
