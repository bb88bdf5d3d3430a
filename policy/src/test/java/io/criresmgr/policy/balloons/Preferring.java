package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Balloon types with CPU preferences, and allocators built for them as the policy builds them. */
final class Preferring {
  /**
   * Two NUMA nodes of 4 two-thread cores: node 0 has CPUs 0-7, node 1 has 8-15; the last core of
   * each node ({6,7} and {14,15}) is kernel-isolated.
   */
  static final SystemTopology ISOLATED =
      TopologySpec.parse("{groups: [{mem: 4G, cores: 4, nodes: 2}], isolcpus: \"6-7,14-15\"}")
          .topology();

  /**
   * A hybrid machine: package 0 (node 0) has two two-thread P-cores, CPUs 0-3; package 1 (node 1)
   * has four one-thread E-cores, CPUs 4-7, of which 7 is kernel-isolated.
   */
  static final SystemTopology HYBRID =
      TopologySpec.parse(
              "{groups: [{mem: 8G, cores: 2, core-type: performance},"
                  + " {mem: 8G, cores: 4, threads: 1, core-type: efficient}], isolcpus: 7}")
          .topology();

  private Preferring() {}

  /** A type with only the given preferences and {@code ShareIdleCPUsInSame}. */
  static BalloonType type(
      String name, boolean isolated, @Nullable CoreType coreType, @Nullable ShareLevel share) {
    return BalloonType.builder(name)
        .allocatorPriority(CpuPriority.NONE)
        .shareIdleCpusInSame(share)
        .preferIsolCpus(isolated)
        .preferCoreType(coreType)
        .build();
  }

  /** A type with only the given preferences. */
  static BalloonType type(String name, boolean isolated, @Nullable CoreType coreType) {
    return type(name, isolated, coreType, null);
  }

  /** The policy options with {@code types} configured, packing, spreading as given. */
  static BalloonsOptions options(boolean spread, BalloonType... types) {
    return BalloonsOptions.builder()
        .preferSpreadOnPhysicalCores(spread)
        .balloonTypes(List.of(types))
        .build();
  }

  /** The allocator of {@code type} (one of {@code options}' types) on {@code topology}. */
  static CpuTreeAllocator allocator(
      SystemTopology topology, BalloonsOptions options, BalloonType type) {
    return new CpuTreeAllocator(
        CpuTree.of(topology),
        new CpuAllocator(topology),
        CpuTreeOptions.of(type, options, topology));
  }

  /** The CPUs {@code allocator} adds to (or removes from) {@code current}, all others free. */
  static CpuSet resize(
      CpuTreeAllocator allocator, SystemTopology topology, CpuSet current, int delta) {
    return allocator.resize(current, topology.onlineCpus().difference(current), delta);
  }
}
