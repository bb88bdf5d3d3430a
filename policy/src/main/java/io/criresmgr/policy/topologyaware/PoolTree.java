package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The tree of pools the topology-aware policy places containers in (docs/policy/topology-aware.md):
 * a virtual {@code root} on multi-socket machines, one pool per socket, per die of a multi-die
 * socket, and per NUMA node of a die or socket with more than one; memory-only NUMA nodes belong to
 * the closest pool with CPUs. Pools are numbered post-order, so leaves have the smallest ids. Built
 * once per policy by {@link PoolTreeBuilder}; immutable.
 */
final class PoolTree {
  private final List<Pool> pools;
  private final Map<String, Pool> byName = new HashMap<>();
  private final CpuSet allowed;
  private final CpuSet reserved;
  private final CpuSet isolated;
  private final PriorityCpus priorityCpus;
  private final Set<MemoryType> presentTypes = EnumSet.noneOf(MemoryType.class);

  /**
   * A tree of {@code pools}, indexed by id; the last one is the root.
   *
   * @param allowed the CPUs the policy may use
   * @param reserved the reserved CPUs
   * @param isolated the allowed kernel-isolated CPUs that are not reserved
   */
  PoolTree(List<Pool> pools, CpuSet allowed, CpuSet reserved, CpuSet isolated) {
    this(pools, allowed, reserved, isolated, PriorityCpus.NONE);
  }

  /**
   * A tree of {@code pools} whose CPUs have priorities.
   *
   * @param priorityCpus the CPUs of each priority, for pool scoring
   */
  PoolTree(
      List<Pool> pools,
      CpuSet allowed,
      CpuSet reserved,
      CpuSet isolated,
      PriorityCpus priorityCpus) {
    this.pools = List.copyOf(pools);
    this.priorityCpus = Objects.requireNonNull(priorityCpus, "priorityCpus");
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    this.reserved = Objects.requireNonNull(reserved, "reserved");
    this.isolated = Objects.requireNonNull(isolated, "isolated");
    for (int i = 0; i < this.pools.size(); i++) {
      Pool p = this.pools.get(i);
      if (p.id() != i) {
        throw new IllegalArgumentException("pool " + p.name() + " has id " + p.id() + ", not " + i);
      }
      byName.put(p.name(), p);
    }
    for (MemoryType t : MemoryType.values()) {
      if (!root().memset(t).isEmpty()) {
        presentTypes.add(t);
      }
    }
  }

  /** Every pool, by id (post-order). */
  List<Pool> pools() {
    return pools;
  }

  /** The number of pools. */
  int size() {
    return pools.size();
  }

  /** The pool with this id. */
  Pool pool(int id) {
    return pools.get(id);
  }

  /** The pool with this name, if any. */
  Optional<Pool> pool(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The root pool. */
  Pool root() {
    return pools.get(pools.size() - 1);
  }

  /** The CPUs the policy may use. */
  CpuSet allowed() {
    return allowed;
  }

  /** The reserved CPUs. */
  CpuSet reserved() {
    return reserved;
  }

  /** The allowed, kernel-isolated, not reserved CPUs. */
  CpuSet isolated() {
    return isolated;
  }

  /** The CPUs of each priority, as pool scoring counts them. */
  PriorityCpus priorityCpus() {
    return priorityCpus;
  }

  /** This tree with {@code cpus} as the CPUs of each priority. */
  PoolTree withPriorityCpus(PriorityCpus cpus) {
    return new PoolTree(pools, allowed, reserved, isolated, cpus);
  }

  /** The memory types the node has. */
  Set<MemoryType> presentTypes() {
    return java.util.Collections.unmodifiableSet(presentTypes);
  }

  /** Whether {@code ancestor} is a strict ancestor of {@code pool}. */
  boolean isAncestor(int ancestor, int pool) {
    return pools.get(pool).ancestors().contains(ancestor);
  }
}
