package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CpuSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The pool an adopted container ran in, read back from the CPUs and memory nodes the runtime
 * reports for it. A grant's memory nodes are its pool's, and its CPUs its pool's too, except for a
 * shared grant in a pool whose sharable CPUs exclusive grants took: that one runs on an ancestor's
 * (see {@link GrantAssignments#shared}). So the hint is the smallest pool with exactly those memory
 * nodes that holds the CPUs, else the smallest with exactly those memory nodes, else (memory not
 * pinned, or widened by the memory guarantee) the smallest that holds both.
 */
final class AdoptionHint {
  private AdoptionHint() {}

  /** The pool, empty if {@code current} has no CPUs or no pool fits. */
  static Optional<Pool> pool(PoolTree tree, Assignment current) {
    if (current.cpus().isEmpty()) {
      return Optional.empty();
    }
    Predicate<Pool> sameMems = p -> p.memset().equals(current.mems());
    Predicate<Pool> holdsCpus = p -> p.cpus().containsAll(current.cpus());
    Predicate<Pool> holdsMems = p -> p.memset().containsAll(current.mems());
    return smallest(tree, sameMems.and(holdsCpus))
        .or(() -> smallest(tree, sameMems))
        .or(() -> smallest(tree, holdsCpus.and(holdsMems)));
  }

  private static Optional<Pool> smallest(PoolTree tree, Predicate<Pool> fits) {
    return tree.pools().stream()
        .filter(fits)
        .min(Comparator.comparingInt((Pool p) -> p.cpus().size()).thenComparingInt(Pool::id));
  }

  /**
   * The CPUs the runtime reported for the containers adopted so far. A container with exclusive
   * CPUs and a shared fraction runs on both, and nothing in its cpuset tells which were its own;
   * but its pool's shared CPUs are also in the cpusets of the pool's other containers, so of its
   * CPUs those no container adopted before it runs on are the likely exclusive ones. Only an order
   * among the CPUs it already runs on: a decision never depends on it otherwise, and it is exact
   * when a container sharing the pool was adopted first (else the container gets as many CPUs of
   * the same pool, perhaps other exclusive ones among them).
   */
  static final class SeenCpus {
    private final Map<String, CpuSet> reported = new HashMap<>();

    /** Of {@code current}, the CPUs no other adopted container was reported on. */
    CpuSet exclusiveCandidates(CpuSet current) {
      CpuSet candidates = current;
      for (CpuSet other : reported.values()) {
        candidates = candidates.difference(other);
      }
      return candidates;
    }

    void record(String cacheId, CpuSet current) {
      if (!current.isEmpty()) {
        reported.put(cacheId, current);
      }
    }

    void forget(String cacheId) {
      reported.remove(cacheId);
    }
  }
}
