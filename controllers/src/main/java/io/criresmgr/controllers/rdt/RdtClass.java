package io.criresmgr.controllers.rdt;

import java.util.Objects;
import java.util.Optional;

/**
 * One RDT class of a partition; its values are relative to the partition's.
 *
 * @param name the class name (resctrl group {@code cri-resmgr.<name>})
 * @param l2 the L2 allocation, if given (default: the whole partition)
 * @param l3 the L3 allocation, if given (default: the whole partition)
 * @param mb the memory bandwidth percentage of the partition's, if given (default: 100)
 */
public record RdtClass(
    String name,
    Optional<PerCacheId<CacheSpec>> l2,
    Optional<PerCacheId<CacheSpec>> l3,
    Optional<PerCacheId<Integer>> mb) {
  /** Checks for nulls; the name must be usable as one directory name. */
  public RdtClass {
    Objects.requireNonNull(name, "name");
    if (!name.matches("[A-Za-z0-9_.-]+") || name.matches("\\.+")) {
      throw new IllegalArgumentException("invalid RDT class name \"" + name + "\"");
    }
    Objects.requireNonNull(l2, "l2");
    Objects.requireNonNull(l3, "l3");
    Objects.requireNonNull(mb, "mb");
  }
}
