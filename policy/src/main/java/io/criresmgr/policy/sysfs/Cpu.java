package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.util.Objects;

/**
 * One online CPU (hardware thread).
 *
 * @param id the CPU number ({@code cpu<id>})
 * @param packageId {@code topology/physical_package_id}
 * @param dieId {@code topology/die_id} (0 when the file is absent)
 * @param nodeId the NUMA node ({@code cpu<id>/node<N>})
 * @param coreId {@code topology/core_id}, unique within a package
 * @param threads {@code topology/thread_siblings_list}: this CPU and its hyperthread siblings
 * @param frequency cpufreq facts
 * @param coreType hybrid core class
 */
public record Cpu(
    int id,
    int packageId,
    int dieId,
    int nodeId,
    int coreId,
    CpuSet threads,
    CpuFrequency frequency,
    CoreType coreType) {
  /** Checks for nulls and that {@code threads} contains {@code id}. */
  public Cpu {
    Objects.requireNonNull(threads, "threads");
    Objects.requireNonNull(frequency, "frequency");
    Objects.requireNonNull(coreType, "coreType");
    if (!threads.contains(id)) {
      throw new IllegalArgumentException("cpu" + id + ": thread siblings " + threads + " lack it");
    }
  }
}
