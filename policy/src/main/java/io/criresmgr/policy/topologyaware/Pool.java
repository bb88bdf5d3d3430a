package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One pool of the {@link PoolTree}: a virtual root, a socket, a die, a NUMA node or an L3 cache,
 * with the CPUs and memory it supplies. Inner pools supply everything their children do. Immutable;
 * what is granted from it is kept by the {@link Ledger}.
 *
 * @param id the post-order number (children before parents; the root has the largest)
 * @param name {@code root}, {@code socket #P}, {@code die #P/D}, {@code NUMA node #N} or {@code L3
 *     cache #C} (C numbers the machine's L3 caches by lowest CPU)
 * @param kind what it stands for
 * @param depth the distance from the root (0 for the root)
 * @param parent the parent's id, -1 for the root
 * @param children the children's ids
 * @param ancestors the ancestors' ids, parent first
 * @param descendants every pool below it, post-order
 * @param isolated allowed kernel-isolated CPUs
 * @param reserved allowed reserved CPUs
 * @param sharable the other allowed CPUs
 * @param memory memory capacity by type
 * @param memsets NUMA node ids by memory type
 */
record Pool(
    int id,
    String name,
    PoolKind kind,
    int depth,
    int parent,
    List<Integer> children,
    List<Integer> ancestors,
    List<Integer> descendants,
    CpuSet isolated,
    CpuSet reserved,
    CpuSet sharable,
    Memory memory,
    Map<MemoryType, CpuSet> memsets) {
  /** Checks for nulls and copies the collections. */
  Pool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    children = List.copyOf(children);
    ancestors = List.copyOf(ancestors);
    descendants = List.copyOf(descendants);
    Objects.requireNonNull(isolated, "isolated");
    Objects.requireNonNull(reserved, "reserved");
    Objects.requireNonNull(sharable, "sharable");
    Objects.requireNonNull(memory, "memory");
    Map<MemoryType, CpuSet> copy = new EnumMap<>(MemoryType.class);
    for (MemoryType t : MemoryType.values()) {
      copy.put(t, memsets.getOrDefault(t, CpuSet.EMPTY));
    }
    memsets = java.util.Collections.unmodifiableMap(copy);
  }

  /** Whether this is the root. */
  boolean isRoot() {
    return parent < 0;
  }

  /** Whether it has no children. */
  boolean isLeaf() {
    return children.isEmpty();
  }

  /** Every allowed CPU of the pool. */
  CpuSet cpus() {
    return isolated.union(reserved).union(sharable);
  }

  /** The NUMA nodes of memory type {@code t}, empty if the pool has none. */
  CpuSet memset(MemoryType t) {
    return Objects.requireNonNull(memsets.get(t), "memsets holds every type");
  }

  /** The NUMA nodes of the given memory types. */
  CpuSet memset(Set<MemoryType> types) {
    CpuSet set = CpuSet.EMPTY;
    for (MemoryType t : types) {
      set = set.union(memset(t));
    }
    return set;
  }

  /** Every NUMA node of the pool. */
  CpuSet memset() {
    return memset(Set.of(MemoryType.values()));
  }

  /** Whether the pool has nodes of every type of {@code types}. */
  boolean hasMemoryTypes(Set<MemoryType> types) {
    for (MemoryType t : types) {
      if (memset(t).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return name;
  }
}
