package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps granted memory available (cri-resmgr's memory guarantee). A grant whose memory comes from
 * an inner pool may use any node of that pool, so every pool below it reserves the grant's memory
 * as "extra" (the {@link Ledger} accounts for that). After a new grant, every other grant whose
 * memory nodes are a strict subset of the new grant's is checked: if its pool's free memory no
 * longer covers the extra reservations, it moves up to the closest ancestor that holds it, and its
 * memory nodes widen to that pool's ("moved container X upward to node Y to guarantee memory").
 * This repeats until nothing moves.
 */
final class MemoryGuarantee {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryGuarantee.class);

  /** Names containers in log lines and errors. */
  @FunctionalInterface
  interface Names {
    /** {@code <pod>:<container>} for a cache id. */
    String of(String cacheId);
  }

  private MemoryGuarantee() {}

  /**
   * Moves grants upward as needed after {@code grant} was added to {@code ledger}.
   *
   * @throws PolicyException if a grant that no longer fits finds no ancestor with enough memory
   */
  static void enforce(Ledger ledger, Grant grant, Names names) {
    PoolTree tree = ledger.tree();
    Pool node = tree.pool(grant.memoryPool());
    if (grant.memory().total() == 0 || node.isLeaf()) {
      return; // no extra reservation below it, nothing can stop fitting
    }
    Set<MemoryType> types = grant.memoryTypes();
    CpuSet memset = node.memset(types);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Grant old : List.copyOf(ledger.grants())) {
        if (old.cacheId().equals(grant.cacheId())) {
          continue;
        }
        CpuSet oldMemset = tree.pool(old.memoryPool()).memset(types);
        if (oldMemset.size() < memset.size()
            && memset.containsAll(oldMemset)
            && moveUp(ledger, old, names)) {
          changed = true;
          break;
        }
      }
    }
  }

  private static boolean moveUp(Ledger ledger, Grant g, Names names) {
    PoolTree tree = ledger.tree();
    Pool node = tree.pool(g.memoryPool());
    long extra = ledger.extraMemory(node.id()).total();
    long free = ledger.freeMemory(node.id()).total();
    if (extra <= free) {
      return false;
    }
    long required = g.memory().total();
    LOG.debug(
        "out-of-memory risk for {} in {}: extra reservations {} > free {}",
        names.of(g.cacheId()),
        node.name(),
        Memory.pretty(extra),
        Memory.pretty(free));
    for (int a : node.ancestors()) {
      if (ledger.extraMemory(a).total() + required <= ledger.freeMemory(a).total()) {
        Pool parent = tree.pool(a);
        checkPerType(ledger, g, parent, names);
        ledger.add(g.withMemoryPool(a, MemorySupply.memset(parent, g.memoryTypes())));
        LOG.info(
            "moved container {} upward to node {} to guarantee memory",
            names.of(g.cacheId()),
            parent.name());
        return true;
      }
    }
    throw new PolicyException(
        "topology-aware: cannot find enough memory ("
            + Memory.pretty(required)
            + ") for "
            + names.of(g.cacheId())
            + " in the ancestors of "
            + node.name()
            + " to guarantee memory");
  }

  private static void checkPerType(Ledger ledger, Grant g, Pool parent, Names names) {
    Memory free = ledger.freeMemory(parent.id());
    for (MemoryType t : MemoryType.values()) {
      if (free.get(t) < g.memory().get(t)) {
        throw new PolicyException(
            "topology-aware: not enough "
                + t
                + " at "
                + parent.name()
                + " to move "
                + names.of(g.cacheId())
                + " upward ("
                + Memory.pretty(g.memory().get(t))
                + " needed, "
                + Memory.pretty(free.get(t))
                + " free)");
      }
    }
  }
}
