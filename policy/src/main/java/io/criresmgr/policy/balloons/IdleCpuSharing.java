package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Option {@code ShareIdleCPUsInSame} (docs/policy/balloons.md, "Shared idle CPUs"): the containers
 * of a balloon whose type sets a level may also run on the idle CPUs inside the topology elements
 * of that level that hold any of the balloon's CPUs. Idle CPUs are the allowed ones in no balloon
 * (so never reserved) and never kernel-isolated.
 *
 * <p>The shared CPUs are computed from the balloons as they are, not kept up to date step by step
 * as cri-resmgr and nri-plugins do, so a balloon that grows into another element shares that
 * element's idle CPUs at once, and one that leaves an element stops sharing them.
 */
final class IdleCpuSharing {
  private final SystemTopology topology;

  IdleCpuSharing(SystemTopology topology) {
    this.topology = Objects.requireNonNull(topology, "topology");
  }

  /** The CPUs of {@code set} that may be shared: free and not kernel-isolated. */
  CpuSet idle(BalloonSet set) {
    CpuSet isolated = topology.isolatedCpus();
    return isolated.isEmpty() ? set.free() : set.free().difference(isolated);
  }

  /** The idle CPUs the containers of {@code b} share, empty if its type shares none. */
  CpuSet sharedIdle(Balloon b, BalloonSet set) {
    return shared(set.type(b).shareIdleCpusInSame(), b.cpus(), idle(set));
  }

  /** The shared idle CPUs of every balloon of {@code set}, by balloon name, in balloon order. */
  Map<String, CpuSet> byBalloon(BalloonSet set) {
    CpuSet idle = idle(set);
    Map<String, CpuSet> out = new LinkedHashMap<>();
    for (Balloon b : set.balloons()) {
      out.put(b.name(), shared(set.type(b).shareIdleCpusInSame(), b.cpus(), idle));
    }
    return out;
  }

  /**
   * The CPUs of {@code idle} in the elements of {@code level} that hold any of {@code cpus}; empty
   * if {@code level} is {@code null}.
   */
  CpuSet shared(@Nullable ShareLevel level, CpuSet cpus, CpuSet idle) {
    if (level == null || idle.isEmpty()) {
      return CpuSet.EMPTY;
    }
    CpuSet elements = CpuSet.EMPTY;
    for (int id : cpus.stream().toArray()) {
      if (!elements.contains(id) && topology.cpus().containsKey(id)) {
        elements = elements.union(element(level, topology.cpu(id)));
      }
    }
    return elements.intersection(idle).difference(cpus);
  }

  /** The CPUs sharing an L2 cache with {@code c}, else (no L2 cache known) its core. */
  private CpuSet l2(Cpu c) {
    CpuSet cpus = CpuSet.EMPTY;
    for (CpuSet group : topology.cacheGroups(2)) {
      if (group.contains(c.id())) {
        cpus = cpus.union(group);
      }
    }
    return cpus.isEmpty() ? topology.coreCpus(c.id()) : cpus;
  }

  /** The online CPU {@code id}. */
  Cpu cpu(int id) {
    return topology.cpu(id);
  }

  /** The online CPUs of the element of {@code level} holding {@code c}. */
  CpuSet element(ShareLevel level, Cpu c) {
    return switch (level) {
      case SYSTEM -> topology.onlineCpus();
      case PACKAGE -> topology.packageCpus(c.packageId());
      case DIE -> topology.dieCpus(c.packageId(), c.dieId());
      case NUMA -> topology.node(c.nodeId()).cpus();
      case L2CACHE -> l2(c);
      case CORE -> topology.coreCpus(c.id());
      case THREAD -> CpuSet.of(c.id());
    };
  }
}
