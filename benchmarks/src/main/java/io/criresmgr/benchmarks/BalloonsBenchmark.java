package io.criresmgr.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import java.io.IOException;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The {@code balloons} policy's allocation and release against container count and topology size,
 * on a generated fake sysfs with {@code ReservedResources: {CPU: 1}} and two balloon types: {@code
 * ns} for namespaces {@code ns-*}, a balloon per namespace of at most {@code MaxCPUs: 4}, and
 * {@code dyn} for namespaces {@code dyn-*}, without {@code MaxCPUs}. Before the run, {@link
 * #containers} Burstable containers of 10m CPU and 8 MiB are created and started through the
 * pipeline, alternately in {@code ns-0..ns-3} and {@code dyn-0}: five balloons in all. The measured
 * container is Burstable with one CPU: in a new namespace of type {@code ns} ({@code
 * PER_NAMESPACE}: a balloon is created for it and deleted after it), or in {@code dyn-0} ({@code
 * DYNAMIC}: the dynamic balloon inflates by one CPU and deflates again). Measured (sample time, µs)
 * as in {@link TopologyAwareBenchmark}: {@link #policyAllocateRelease} and {@link
 * #createAndRemove}.
 */
@State(Scope.Benchmark)
public class BalloonsBenchmark extends PolicyBenchmarkBase {
  /** The balloon type the measured container goes to. */
  public enum Kind {
    /** A new balloon of the per-namespace type with MaxCPUs, deleted on release. */
    PER_NAMESPACE,
    /** The one balloon of the type without MaxCPUs, inflated and deflated. */
    DYNAMIC
  }

  /** {@code policy.balloons}. */
  static final String OPTIONS =
      """
      {"BalloonTypes": [
        {"Name": "ns", "Namespaces": ["ns-*"], "MaxCPUs": 4, "PreferPerNamespaceBalloon": true},
        {"Name": "dyn", "Namespaces": ["dyn-*"]}]}
      """;

  private static final int FILL_NAMESPACES = 4;

  /** The node's CPU count, a key of {@link TopologyAwareBenchmark#TOPOLOGIES}. */
  @Param({"16", "448", "4096"})
  public String cpus = "448";

  /** Containers in the cache besides the measured one. */
  @Param({"10", "100", "500"})
  public int containers = 100;

  /** Where the measured container goes. */
  @Param({"PER_NAMESPACE", "DYNAMIC"})
  public Kind kind = Kind.PER_NAMESPACE;

  /** Generates the topology, builds the pipeline and fills the cache through it. */
  @Override
  PolicyBench filledBench() throws IOException {
    String topology = TopologyAwareBenchmark.topology(cpus);
    JsonNode options = new ObjectMapper().readTree(OPTIONS);
    PolicyBench bench =
        PolicyBench.onFakeSysfs(topology, new BalloonsPolicyProvider(), "1", options);
    LinuxContainerResources small = CriRequests.shared().toBuilder().setCpuShares(10).build();
    for (int i = 0; i < containers; i++) {
      String ns = i % 2 == 0 ? "ns-" + (i / 2) % FILL_NAMESPACES : "dyn-0";
      bench.run(create(bench, "pod-" + i, ns, small));
    }
    return bench;
  }

  @Override
  CreateContainerRequest candidate(PolicyBench bench) {
    String ns = kind == Kind.PER_NAMESPACE ? "ns-candidate" : "dyn-0";
    LinuxContainerResources one = CriRequests.shared().toBuilder().setCpuShares(1024).build();
    return create(bench, "candidate", ns, one);
  }

  /**
   * Runs Burstable pod {@code pod} on {@code bench} and returns a CreateContainer of its container,
   * 8 MiB.
   */
  private static CreateContainerRequest create(
      PolicyBench bench, String pod, String namespace, LinuxContainerResources resources) {
    PodSandboxConfig base = PolicyBench.podConfig(pod, false);
    PodSandboxConfig config =
        base.toBuilder()
            .setMetadata(base.getMetadata().toBuilder().setNamespace(namespace))
            .build();
    return bench.create(config, resources);
  }
}
