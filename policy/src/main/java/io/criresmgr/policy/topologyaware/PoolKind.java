package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.topologyaware.TopologyAwareOptions.Level;

/** What a {@link Pool} stands for in the hardware. */
enum PoolKind {
  /** The whole machine, when it has more than one socket. */
  VIRTUAL(0),
  /** A CPU package. */
  SOCKET(1),
  /** A die of a package with two or more dies. */
  DIE(2),
  /** A NUMA node with CPUs, when its die or socket has more than one. */
  NUMA(3),
  /**
   * The CPUs sharing one L3 cache (an AMD CCX), when the caches split the pool above (a NUMA node,
   * or the die or socket standing in for it).
   */
  L3_CACHE(4);

  private final int depth;

  PoolKind(int depth) {
    this.depth = depth;
  }

  /** How deep pools of this kind sit in a tree that has every kind: the root 0, L3 caches 4. */
  int depth() {
    return depth;
  }

  /** The kind of the pools at {@code level}. */
  static PoolKind of(Level level) {
    return switch (level) {
      case SYSTEM -> VIRTUAL;
      case PACKAGE -> SOCKET;
      case DIE -> DIE;
      case NUMA -> NUMA;
    };
  }
}
