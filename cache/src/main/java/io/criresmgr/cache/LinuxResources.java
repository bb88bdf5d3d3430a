package io.criresmgr.cache;

import java.util.Map;

/**
 * The part of CRI {@code LinuxContainerResources} the resource manager reads and decides: what
 * kubelet asked for, or what a decision makes of it. Zero and empty strings mean "not set".
 *
 * @param cpuPeriod CFS period in microseconds
 * @param cpuQuota CFS quota in microseconds (-1: unlimited)
 * @param cpuShares CPU shares
 * @param memoryLimitBytes memory limit in bytes
 * @param cpusetCpus cpuset CPUs in list format
 * @param cpusetMems cpuset memory nodes in list format
 * @param unified cgroup v2 unified files and values
 */
public record LinuxResources(
    long cpuPeriod,
    long cpuQuota,
    long cpuShares,
    long memoryLimitBytes,
    String cpusetCpus,
    String cpusetMems,
    Map<String, String> unified) {
  /** Nothing set. */
  public static final LinuxResources NONE = new LinuxResources(0, 0, 0, 0, "", "", Map.of());

  /** Copies the map. */
  public LinuxResources {
    unified = Map.copyOf(unified);
  }

  /** A copy with {@code files} set in the unified map (replacing values of the same files). */
  public LinuxResources withUnified(Map<String, String> files) {
    Map<String, String> merged = new java.util.TreeMap<>(unified);
    merged.putAll(files);
    return new LinuxResources(
        cpuPeriod, cpuQuota, cpuShares, memoryLimitBytes, cpusetCpus, cpusetMems, merged);
  }
}
