package io.criresmgr.policy.topologyaware;

/** What a {@link Pool} stands for in the hardware. */
enum PoolKind {
  /** The whole machine, when it has more than one socket. */
  VIRTUAL,
  /** A CPU package. */
  SOCKET,
  /** A die of a package with two or more dies. */
  DIE,
  /** A NUMA node with CPUs, when its die or socket has more than one. */
  NUMA,
  /**
   * The CPUs sharing one L3 cache (an AMD CCX), when the caches split the pool above (a NUMA node,
   * or the die or socket standing in for it).
   */
  L3_CACHE
}
