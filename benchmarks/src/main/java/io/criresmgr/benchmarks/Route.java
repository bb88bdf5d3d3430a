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
  BARE_RELAY
}
