package io.criresmgr.policy.balloons;

import java.util.Locale;

/**
 * Option {@code ShareIdleCPUsInSame}: the topology element within which a balloon's containers may
 * also use idle CPUs (CPUs in no balloon) next to the balloon's own CPUs.
 */
public enum ShareLevel {
  /** Every idle CPU of the node. */
  SYSTEM,
  /** Idle CPUs in the balloon's sockets. */
  PACKAGE,
  /** Idle CPUs in the balloon's dies. */
  DIE,
  /** Idle CPUs in the balloon's NUMA nodes. */
  NUMA,
  /**
   * Idle CPUs sharing an L2 cache with the balloon's CPUs (nri-plugins' {@code l2cache}); a CPU of
   * no known L2 cache counts as its core.
   */
  L2CACHE,
  /** Idle hyperthreads of the balloon's physical cores. */
  CORE,
  /**
   * Only the balloon's own hardware threads, the smallest element (accepted as cri-resmgr does).
   */
  THREAD;

  /** The configuration spelling, e.g. {@code numa}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
