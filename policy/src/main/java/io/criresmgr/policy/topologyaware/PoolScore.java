package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.List;

/**
 * How well a pool fits a request (cri-resmgr's {@code supply.GetScore}): the capacity left after
 * the request would be granted, negative when it does not fit.
 *
 * @param pool the pool
 * @param isolated free isolated CPUs minus the exclusive CPUs asked for (isolating requests only)
 * @param reserved allocatable reserved milli-CPUs, minus the request for reserved requests
 * @param shared allocatable shared milli-CPUs minus the request's sliced and shared part
 * @param colocated grants of the request's CPU kind in the pool
 * @param affinity the affinity score of the pool for the container
 * @param memoryTypes whether the request restricts memory types (allows fewer than the node has)
 *     and the pool has every type it allows; false for unrestricted requests, as cri-resmgr's
 *     default type (all three, HBM included) matched no pool
 * @param sharedFits whether the shared capacity suffices: when exclusive CPUs are sliced off the
 *     sharable ones, {@code shared} at least 0 and the slice leaves every pool with containers
 *     using its shared CPUs at least one of them ({@link Ledger#canSlice}); otherwise {@code
 *     shared} above 0, as in cri-resmgr
 * @param limitFits whether the pool's memory of the allowed types holds the request's memory limit
 *     (always true when the limit is not above what is reserved)
 * @param memoryRoom the pool's memory of the allowed types for a request reserving memory without a
 *     memory limit (Burstable), else 0
 * @param cpuLimitFits whether the pool has at least as many CPUs (all it has, reserved and isolated
 *     included) as the CPU limit of a Burstable request whose limit is above its request, so the
 *     container can burst to its limit there (always true for other requests)
 * @param level where the pool is against the {@code UnlimitedBurstable} level for a Burstable
 *     request without a CPU limit: negative above it, 0 at it, positive below (0 for other
 *     requests)
 * @param high free sharable high priority CPUs (in milli-CPUs) minus the request (nri-plugins'
 *     {@code PrioCapacity}); 0 for reserved requests and requests without a preferred priority
 * @param normal likewise for normal priority CPUs
 * @param low likewise for low priority CPUs
 * @param hints the product of the scores of the container's device hints ({@link
 *     DeviceHintScores}); 0 without hints
 * @param hintsNonZero the product of the non-zero hint scores; 0 without hints
 */
record PoolScore(
    Pool pool,
    long isolated,
    long reserved,
    long shared,
    int colocated,
    double affinity,
    boolean memoryTypes,
    boolean sharedFits,
    boolean limitFits,
    long memoryRoom,
    boolean cpuLimitFits,
    int level,
    long high,
    long normal,
    long low,
    double hints,
    double hintsNonZero) {

  /**
   * Scores {@code pool} for {@code request}; {@code target} is the pool kind of the {@code
   * UnlimitedBurstable} level on this tree.
   */
  static PoolScore of(
      Ledger ledger,
      Pool pool,
      CpuRequest request,
      MemoryRequest memory,
      double a,
      PoolKind target,
      List<TopologyHint> devices) {
    long full = request.full();
    long part = request.fractionMilli();
    if (full == 0 && part == 0) {
      part = 1;
    }
    long reserved = ledger.allocatableReserved(pool.id());
    long shared = ledger.allocatableShared(pool.id());
    long isolated = 0;
    boolean slicing = false;
    if (request.kind() == CpuKind.RESERVED) {
      reserved -= part;
    } else {
      if (request.isolate()) {
        isolated = ledger.freeIsolated(pool.id()).size() - full;
      }
      if (!request.isolate() || isolated < 0) {
        shared -= 1000 * full;
        slicing = full > 0;
      }
      shared -= part;
    }
    double[] hints = DeviceHintScores.combined(ledger.tree(), pool, devices);
    boolean sharedFits =
        slicing ? shared >= 0 && ledger.canSlice(pool.id(), (int) full) : shared > 0;
    long[] prio = new long[3];
    if (request.kind() != CpuKind.RESERVED && request.priority() != CpuPriority.NONE) {
      CpuSet free = ledger.freeSharable(pool.id());
      PriorityCpus cpus = ledger.tree().priorityCpus();
      for (CpuPriority p : List.of(CpuPriority.HIGH, CpuPriority.NORMAL, CpuPriority.LOW)) {
        prio[p.rank()] = 1000L * free.intersection(cpus.get(p)).size() - 1000 * full - part;
      }
    }
    return new PoolScore(
        pool,
        isolated,
        reserved,
        shared,
        ledger.colocated(pool.id(), request.kind()),
        a,
        !memory.types().containsAll(ledger.tree().presentTypes())
            && pool.hasMemoryTypes(memory.types()),
        sharedFits,
        !memory.burstable() || memoryCapacity(pool, memory) >= memory.limitBytes(),
        memory.bytes() > 0 && memory.limitBytes() == 0 ? memoryCapacity(pool, memory) : 0,
        !limitedBurstable(request) || 1000L * pool.cpus().size() >= request.limitMilli(),
        request.unlimitedBurstable() ? Integer.compare(pool.kind().depth(), target.depth()) : 0,
        prio[CpuPriority.HIGH.rank()],
        prio[CpuPriority.NORMAL.rank()],
        prio[CpuPriority.LOW.rank()],
        hints[0],
        hints[1]);
  }

  // A Burstable request (normal CPUs, a limit) whose CPU limit is above its request.
  private static boolean limitedBurstable(CpuRequest r) {
    return r.kind() == CpuKind.NORMAL
        && !r.unlimitedBurstable()
        && r.limitMilli() > 1000L * r.full() + r.fractionMilli();
  }

  private static long memoryCapacity(Pool pool, MemoryRequest memory) {
    long total = 0;
    for (MemoryType t : memory.types()) {
      total += pool.memory().get(t);
    }
    return total;
  }

  /** The capacity of {@code priority} CPUs left after the request; 0 for {@code NONE}. */
  long capacity(CpuPriority priority) {
    return switch (priority) {
      case HIGH -> high;
      case NORMAL -> normal;
      case LOW -> low;
      case NONE -> 0;
    };
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "%s: isolated %d, reserved %d, shared %d%s, colocated %d, affinity %.3f, hints %.3f,"
            + " limit %s, memory room %d, CPU limit %s, level %d,"
            + " high/normal/low priority %d/%d/%d",
        pool.name(),
        isolated,
        reserved,
        shared,
        sharedFits ? "" : " (too little)",
        colocated,
        affinity,
        hints,
        limitFits ? "fits" : "does not fit",
        memoryRoom,
        cpuLimitFits ? "fits" : "does not fit",
        level,
        high,
        normal,
        low);
  }
}
