package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyContractTest;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * The contract on one socket of two NUMA nodes with 4 CPUs each (8 CPUs, as the contract's default
 * context), one CPU reserved by quantity.
 */
class TopologyAwarePolicyContractTest extends PolicyContractTest {
  private static final SystemTopology TOPOLOGY =
      Topologies.grid(1, 1, 2, 2, 2, 4 * Topologies.GIB, CpuSet.EMPTY);

  @Override
  protected PolicyProvider<?> provider() {
    TopologyAwareOptions options = TopologyAwareOptions.DEFAULTS;
    return Harness.provider(TOPOLOGY, options, new SimpleRequests(options), Clock.systemUTC());
  }

  /**
   * Only Guaranteed containers get exclusive CPUs. The scenario's resource updates keep a
   * container's QoS class (as Kubernetes does), so a BestEffort container updated to a whole CPU
   * still shares.
   */
  @Override
  protected boolean holdsExclusively(Container c) {
    return c.qosClass() == QosClass.GUARANTEED && super.holdsExclusively(c);
  }

  @Override
  protected PolicyContext context() {
    return new PolicyContext(
        Path.of("/nonexistent-host-root"),
        CpuSet.range(0, 7),
        CpuSet.of(0, 1),
        Map.of(),
        Map.of("CPU", "750m"));
  }
}
