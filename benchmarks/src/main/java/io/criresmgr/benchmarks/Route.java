package io.criresmgr.benchmarks;

/** How a benchmark client reaches the backend. */
public enum Route {
  /** Straight to the backend's socket: the baseline. */
  DIRECT,
  /**
   * Through the full cri-resmgr daemon with its default configuration, as users run it: metrics
   * listener and message dump with the default rules active.
   */
  CRI_RESMGR,
  /** Through a bare raw-bytes relay that observes nothing: the floor for one extra hop. */
  BARE_RELAY,
  /**
   * Experiment, not run by default: the bare relay with the daemon's listeners (metrics and dump
   * with default rules), to tell their cost from the rest of the daemon's.
   */
  RELAY_WITH_LISTENERS,
  /**
   * Experiment, not run by default: the bare relay on two I/O threads instead of the daemon's one
   * (the daemon had two until issue 20).
   */
  BARE_RELAY_TWO_LOOPS
}
