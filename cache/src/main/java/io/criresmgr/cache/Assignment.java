package io.criresmgr.cache;

import java.util.Map;
import java.util.Objects;

/**
 * What a policy decided for one container. Empty sets, zero amounts and empty strings leave the
 * corresponding setting as kubelet requested it.
 *
 * @param cpus CPUs the container may run on
 * @param mems memory nodes the container may allocate from
 * @param cpuShares CPU shares
 * @param cpuQuota CFS quota in microseconds (-1: unlimited)
 * @param cpuPeriod CFS period in microseconds
 * @param memoryLimitBytes memory limit in bytes
 * @param unified cgroup v2 unified files and values
 * @param rdtClass RDT class name
 * @param blockIoClass block I/O class name
 */
public record Assignment(
    CpuSet cpus,
    CpuSet mems,
    long cpuShares,
    long cpuQuota,
    long cpuPeriod,
    long memoryLimitBytes,
    Map<String, String> unified,
    String rdtClass,
    String blockIoClass) {
  /** Nothing decided: the container runs as kubelet asked. */
  public static final Assignment NONE =
      new Assignment(CpuSet.EMPTY, CpuSet.EMPTY, 0, 0, 0, 0, Map.of(), "", "");

  /** Checks for nulls and copies the map. */
  public Assignment {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(mems, "mems");
    Objects.requireNonNull(rdtClass, "rdtClass");
    Objects.requireNonNull(blockIoClass, "blockIoClass");
    unified = Map.copyOf(unified);
  }

  /** Only a cpuset and memory nodes. */
  public static Assignment of(CpuSet cpus, CpuSet mems) {
    return NONE.withCpus(cpus).withMems(mems);
  }

  /** A copy with other CPUs. */
  public Assignment withCpus(CpuSet value) {
    return new Assignment(
        value,
        mems,
        cpuShares,
        cpuQuota,
        cpuPeriod,
        memoryLimitBytes,
        unified,
        rdtClass,
        blockIoClass);
  }

  /** A copy with other memory nodes. */
  public Assignment withMems(CpuSet value) {
    return new Assignment(
        cpus,
        value,
        cpuShares,
        cpuQuota,
        cpuPeriod,
        memoryLimitBytes,
        unified,
        rdtClass,
        blockIoClass);
  }

  /** A copy with other CPU shares. */
  public Assignment withCpuShares(long value) {
    return new Assignment(
        cpus, mems, value, cpuQuota, cpuPeriod, memoryLimitBytes, unified, rdtClass, blockIoClass);
  }

  /** A copy with other unified cgroup v2 values. */
  public Assignment withUnified(Map<String, String> value) {
    return new Assignment(
        cpus,
        mems,
        cpuShares,
        cpuQuota,
        cpuPeriod,
        memoryLimitBytes,
        value,
        rdtClass,
        blockIoClass);
  }

  /**
   * The linux resources to give the runtime: {@code requested} with every setting this assignment
   * decides replaced (unified values are merged, the assignment winning).
   */
  public LinuxResources applyTo(LinuxResources requested) {
    Map<String, String> merged = requested.unified();
    if (!unified.isEmpty()) {
      merged = new java.util.TreeMap<>(merged);
      merged.putAll(unified);
    }
    return new LinuxResources(
        cpuPeriod != 0 ? cpuPeriod : requested.cpuPeriod(),
        cpuQuota != 0 ? cpuQuota : requested.cpuQuota(),
        cpuShares != 0 ? cpuShares : requested.cpuShares(),
        memoryLimitBytes != 0 ? memoryLimitBytes : requested.memoryLimitBytes(),
        cpus.isEmpty() ? requested.cpusetCpus() : cpus.toString(),
        mems.isEmpty() ? requested.cpusetMems() : mems.toString(),
        merged);
  }
}
