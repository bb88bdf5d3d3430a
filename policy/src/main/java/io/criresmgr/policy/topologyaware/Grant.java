package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What one container was granted: CPUs from one pool, memory from one pool (the same or, after the
 * memory guarantee moved it upward, an ancestor).
 *
 * @param cacheId the container's cache id
 * @param kind normal (exclusive and/or shared CPUs), reserved, or preserve (no CPU pinning)
 * @param pool the id of the pool the CPUs come from
 * @param exclusive exclusive CPUs (isolated or sliced off the pool's sharable CPUs)
 * @param fractionMilli shared (normal) or reserved milli-CPUs
 * @param memoryPool the id of the pool the memory comes from
 * @param memoryTypes the memory types the container may use
 * @param memset the memory nodes it is pinned to (PMEM only during a cold start)
 * @param memory the memory granted, by type
 * @param coldStart the cold start period; {@link Duration#ZERO} if none or finished
 * @param coldStartDeadline when the started cold start ends (epoch milliseconds); 0 until started
 * @param hideHyperthreads pin to one hyperthread per core of the granted CPUs
 * @param memoryPreserve leave the container's memory nodes as kubelet set them
 */
record Grant(
    String cacheId,
    CpuKind kind,
    int pool,
    CpuSet exclusive,
    long fractionMilli,
    int memoryPool,
    Set<MemoryType> memoryTypes,
    CpuSet memset,
    Memory memory,
    Duration coldStart,
    long coldStartDeadline,
    boolean hideHyperthreads,
    boolean memoryPreserve) {
  /** Checks for nulls and negative amounts; copies the type set. */
  Grant {
    Objects.requireNonNull(cacheId, "cacheId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(exclusive, "exclusive");
    Objects.requireNonNull(memset, "memset");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(coldStart, "coldStart");
    memoryTypes =
        Collections.unmodifiableSet(
            memoryTypes.isEmpty() ? EnumSet.noneOf(MemoryType.class) : EnumSet.copyOf(memoryTypes));
    if (fractionMilli < 0 || coldStart.isNegative()) {
      throw new IllegalArgumentException("negative amount in grant of " + cacheId);
    }
  }

  /** Whether the container uses its pool's shared CPUs (shared-only or exclusive + shared). */
  boolean usesSharedCpus() {
    return kind == CpuKind.NORMAL && (exclusive.isEmpty() || fractionMilli > 0);
  }

  /** Whether a cold start is pending or running. */
  boolean inColdStart() {
    return !coldStart.isZero();
  }

  /** A copy whose memory comes from {@code pool} with the memory nodes {@code nodes}. */
  Grant withMemoryPool(int pool, CpuSet nodes) {
    return new Grant(
        cacheId,
        kind,
        this.pool,
        exclusive,
        fractionMilli,
        pool,
        memoryTypes,
        nodes,
        memory,
        Duration.ZERO,
        0,
        hideHyperthreads,
        memoryPreserve);
  }

  /** A copy with another memset and cold start state. */
  Grant withColdStart(CpuSet nodes, Duration period, long deadline) {
    return new Grant(
        cacheId,
        kind,
        pool,
        exclusive,
        fractionMilli,
        memoryPool,
        memoryTypes,
        nodes,
        memory,
        period,
        deadline,
        hideHyperthreads,
        memoryPreserve);
  }
}
