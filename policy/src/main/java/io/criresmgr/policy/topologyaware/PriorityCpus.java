package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The CPUs of each priority as pool scoring counts them (nri-plugins' {@code supply.GetScore}): on
 * a hybrid machine the performance cores are the high and the efficient cores the low priority
 * CPUs, wherever they are; otherwise the CPU allocator's classes (base frequency, EPP, per package)
 * decide. Normal priority CPUs are always the allocator's class.
 *
 * @param high high priority CPUs
 * @param normal normal priority CPUs
 * @param low low priority CPUs
 */
record PriorityCpus(CpuSet high, CpuSet normal, CpuSet low) {
  /** No CPU has a priority (every pool has no capacity of any priority). */
  static final PriorityCpus NONE = new PriorityCpus(CpuSet.EMPTY, CpuSet.EMPTY, CpuSet.EMPTY);

  /** Checks for nulls. */
  PriorityCpus {
    Objects.requireNonNull(high, "high");
    Objects.requireNonNull(normal, "normal");
    Objects.requireNonNull(low, "low");
  }

  /**
   * The sets of {@code topology}.
   *
   * @param classes the CPU allocator's classes ({@code CpuAllocator.priorities()})
   */
  static PriorityCpus of(SystemTopology topology, Map<CpuPriority, CpuSet> classes) {
    CpuSet performance = coreType(topology, CoreType.PERFORMANCE);
    CpuSet efficient = coreType(topology, CoreType.EFFICIENT);
    return new PriorityCpus(
        performance.isEmpty() ? classes.getOrDefault(CpuPriority.HIGH, CpuSet.EMPTY) : performance,
        classes.getOrDefault(CpuPriority.NORMAL, CpuSet.EMPTY),
        efficient.isEmpty() ? classes.getOrDefault(CpuPriority.LOW, CpuSet.EMPTY) : efficient);
  }

  /** The CPUs of {@code priority}; none for {@link CpuPriority#NONE}. */
  CpuSet get(CpuPriority priority) {
    return switch (priority) {
      case HIGH -> high;
      case NORMAL -> normal;
      case LOW -> low;
      case NONE -> CpuSet.EMPTY;
    };
  }

  private static CpuSet coreType(SystemTopology topology, CoreType type) {
    List<Integer> ids = new ArrayList<>();
    for (Cpu cpu : topology.cpus().values()) {
      if (cpu.coreType() == type && topology.onlineCpus().contains(cpu.id())) {
        ids.add(cpu.id());
      }
    }
    return CpuSet.of(ids);
  }
}
