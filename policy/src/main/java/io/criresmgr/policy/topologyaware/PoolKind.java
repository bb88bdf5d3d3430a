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
  NUMA
}
