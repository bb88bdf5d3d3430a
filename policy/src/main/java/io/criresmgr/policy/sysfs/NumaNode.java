package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.util.Map;
import java.util.Objects;

/**
 * One NUMA node.
 *
 * @param id the node number ({@code node<id>})
 * @param cpus its online CPUs ({@code cpulist}); empty for a memory-only node
 * @param memoryBytes {@code meminfo} MemTotal
 * @param memoryType DRAM for nodes with CPUs; for memory-only nodes as {@link SysfsReader} typed it
 * @param far a memory-only DRAM-like node (CXL memory expander): a slower tier than local DRAM
 * @param distances {@code node<id>/distance}: node id to distance, including itself
 * @param normalMemory listed in {@code has_normal_memory} (false: movable memory only)
 */
public record NumaNode(
    int id,
    CpuSet cpus,
    long memoryBytes,
    MemoryType memoryType,
    boolean far,
    Map<Integer, Integer> distances,
    boolean normalMemory) {
  /** Checks for nulls and copies the map. */
  public NumaNode {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(memoryType, "memoryType");
    distances = Map.copyOf(distances);
    if (memoryBytes < 0) {
      throw new IllegalArgumentException("node" + id + ": negative memory");
    }
  }

  /** Whether the node has no CPUs. */
  public boolean memoryOnly() {
    return cpus.isEmpty();
  }

  /** The distance to {@code other}, or {@link Integer#MAX_VALUE} if not listed. */
  public int distance(int other) {
    return distances.getOrDefault(other, Integer.MAX_VALUE);
  }
}
