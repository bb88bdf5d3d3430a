package io.criresmgr.cache;

/**
 * Estimates Kubernetes requests and limits from CRI linux resources when the webhook's annotation
 * is absent (cri-resmgr {@code cache/utils.go estimateComputeResources}).
 */
public final class ResourceEstimator {
  private ResourceEstimator() {}

  /**
   * CPU request from shares ({@code round(shares * 1000 / 1024)}, 2 shares being 0), memory limit
   * from the memory limit; a Guaranteed container's CPU limit equals its request and its memory
   * request its limit, otherwise the CPU limit is {@code round(quota * 1000 / period)}.
   */
  public static Resources estimate(LinuxResources requested, QosClass qos) {
    throw new UnsupportedOperationException("TODO");
  }
}
