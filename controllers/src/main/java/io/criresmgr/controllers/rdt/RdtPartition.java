package io.criresmgr.controllers.rdt;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition: a share of the hardware that its classes divide among themselves.
 *
 * @param name the partition name
 * @param l2 the L2 allocation, if given
 * @param l3 the L3 allocation, if given
 * @param mb the memory bandwidth percentage, if given
 * @param classes the classes, in configuration order
 */
public record RdtPartition(
    String name,
    Optional<PerCacheId<CacheSpec>> l2,
    Optional<PerCacheId<CacheSpec>> l3,
    Optional<PerCacheId<Integer>> mb,
    List<RdtClass> classes) {
  /** Checks for nulls, copies the list. */
  public RdtPartition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(l2, "l2");
    Objects.requireNonNull(l3, "l3");
    Objects.requireNonNull(mb, "mb");
    classes = List.copyOf(classes);
  }
}
