package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A grant as read from the policy data, its pools still by name: it may have been made for another
 * pool tree (other available or reserved CPUs, another machine).
 *
 * @param cacheId the container's cache id
 * @param kind its CPU kind
 * @param pool name of the CPU pool
 * @param exclusive exclusive CPUs
 * @param fractionMilli shared or reserved milli-CPUs
 * @param memoryPool name of the memory pool
 * @param memoryTypes memory types
 * @param memset memory nodes
 * @param memory memory by type
 * @param coldStart pending cold start period
 * @param coldStartDeadline end of a started cold start (epoch milliseconds), 0 if not started
 * @param hideHyperthreads one hyperthread per core
 * @param memoryPreserve leave memory nodes alone
 */
record StoredGrant(
    String cacheId,
    CpuKind kind,
    String pool,
    CpuSet exclusive,
    long fractionMilli,
    String memoryPool,
    Set<MemoryType> memoryTypes,
    CpuSet memset,
    Memory memory,
    Duration coldStart,
    long coldStartDeadline,
    boolean hideHyperthreads,
    boolean memoryPreserve) {

  /** The grant in {@code tree}, if both its pools exist there. */
  Optional<Grant> resolve(PoolTree tree) {
    Optional<Pool> cpuPool = tree.pool(pool);
    Optional<Pool> memPool = tree.pool(memoryPool);
    if (cpuPool.isEmpty() || memPool.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Grant(
            cacheId,
            kind,
            cpuPool.get().id(),
            exclusive,
            fractionMilli,
            memPool.get().id(),
            memoryTypes,
            memset,
            memory,
            coldStart,
            coldStartDeadline,
            hideHyperthreads,
            memoryPreserve));
  }
}
