package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Assignment;
import java.util.Comparator;
import java.util.Optional;

/**
 * The pool an adopted container ran in, read back from the CPUs and memory nodes the runtime
 * reports for it: the smallest pool holding all of them (a grant's CPUs and memory nodes are its
 * pool's, or an ancestor's when the pool has no shared CPUs left).
 */
final class AdoptionHint {
  private AdoptionHint() {}

  /** The pool, empty if {@code current} has no CPUs or no pool holds them all. */
  static Optional<Pool> pool(PoolTree tree, Assignment current) {
    if (current.cpus().isEmpty()) {
      return Optional.empty();
    }
    return tree.pools().stream()
        .filter(p -> p.cpus().containsAll(current.cpus()))
        .filter(p -> p.memset().containsAll(current.mems()))
        .min(Comparator.comparingInt((Pool p) -> p.cpus().size()).thenComparingInt(Pool::id));
  }
}
