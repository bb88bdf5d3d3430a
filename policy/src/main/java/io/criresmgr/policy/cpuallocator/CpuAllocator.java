package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Map;
import java.util.Objects;

/**
 * Picks CPUs from a set as cri-resmgr's CPU allocator does (reference §4.9): whole idle packages,
 * then whole idle cores, then single threads close to what is already taken; by priority, then by
 * id, so the same input always gives the same CPUs. Immutable and thread-safe.
 */
public final class CpuAllocator {
  private final SystemTopology topology;

  /** An allocator for {@code topology}; CPU priority classes are derived from it once. */
  public CpuAllocator(SystemTopology topology) {
    this.topology = Objects.requireNonNull(topology, "topology");
  }

  /**
   * Picks {@code count} CPUs of {@code from}.
   *
   * @throws io.criresmgr.policy.PolicyException if {@code from} has fewer than {@code count} CPUs
   */
  public CpuSet allocate(CpuSet from, int count, CpuPriority prefer) {
    throw new UnsupportedOperationException("not yet: " + from + count + prefer + topology);
  }

  /** Picks {@code count} CPUs of {@code from} to give back, keeping the best-placed rest. */
  public CpuSet release(CpuSet from, int count, CpuPriority prefer) {
    throw new UnsupportedOperationException("not yet: " + from + count + prefer);
  }

  /** The CPUs of each priority class ({@link CpuPriority#NONE} excluded). */
  public Map<CpuPriority, CpuSet> priorities() {
    throw new UnsupportedOperationException("not yet");
  }

  /** One hyperthread per core of {@code cpus} (the lowest id of each core). */
  public CpuSet oneThreadPerCore(CpuSet cpus) {
    throw new UnsupportedOperationException("not yet: " + cpus);
  }
}
