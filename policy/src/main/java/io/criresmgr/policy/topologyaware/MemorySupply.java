package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.EnumSet;
import java.util.Set;

/** Memory from a pool: amounts by type, and the memory nodes a grant is pinned to. */
final class MemorySupply {
  private MemorySupply() {}

  /** The pool's nodes of {@code types}, else its DRAM nodes, else all of them (cri-resmgr's). */
  static CpuSet memset(Pool pool, Set<MemoryType> types) {
    CpuSet nodes = pool.memset(types);
    if (nodes.isEmpty()) {
      nodes = pool.memset(EnumSet.of(MemoryType.DRAM));
    }
    return nodes.isEmpty() ? pool.memset() : nodes;
  }

  /**
   * Takes the request's memory from the pool's free memory: PMEM, then DRAM, then HBM, as the
   * request allows (cri-resmgr's {@code allocateMemory}); a cold start must fit in PMEM.
   *
   * @throws PolicyException naming the pool and the free memory if it falls short
   */
  static Memory take(Ledger ledger, Pool pool, ContainerRequest r) {
    MemoryRequest m = r.memory();
    long left = m.bytes();
    Memory free = ledger.freeMemory(pool.id());
    Memory got = Memory.NONE;
    for (MemoryType t : Memory.ALLOCATION_ORDER) {
      if (left > 0 && m.types().contains(t)) {
        long take = Math.min(left, Math.max(0, free.get(t)));
        got = got.plus(t, take);
        left -= take;
      }
      if (left > 0 && t == MemoryType.PMEM && !m.coldStart().isZero()) {
        throw memoryError(r, pool, free, "not enough PMEM for a cold start");
      }
    }
    if (left > 0) {
      throw memoryError(r, pool, free, Memory.pretty(left) + " short");
    }
    return got;
  }

  private static PolicyException memoryError(
      ContainerRequest r, Pool pool, Memory free, String why) {
    return new PolicyException(
        "topology-aware: cannot allocate "
            + r.describe()
            + " for "
            + r.prettyName()
            + " from "
            + pool.name()
            + ": "
            + why
            + " (free: "
            + free
            + ")");
  }
}
