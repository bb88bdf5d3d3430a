package io.criresmgr.cache;

/**
 * Estimates Kubernetes requests and limits from CRI linux resources when the webhook's annotation
 * is absent (cri-resmgr {@code cache/utils.go estimateComputeResources}).
 */
public final class ResourceEstimator {
  /** The shares kubelet gives a container without a CPU request (cgroup's minimum). */
  static final long MIN_SHARES = 2;

  /** Shares kubelet gives per CPU. */
  static final long SHARES_PER_CPU = 1024;

  private ResourceEstimator() {}

  /**
   * CPU request from shares ({@code round(shares * 1000 / 1024)}, 2 shares being 0), memory limit
   * from the memory limit; a Guaranteed container's CPU limit equals its request and its memory
   * request its limit, otherwise the CPU limit is {@code round(quota * 1000 / period)}.
   */
  public static Resources estimate(LinuxResources requested, QosClass qos) {
    long cpuRequest = sharesToMilliCpu(requested.cpuShares());
    long memoryLimit = Math.max(0, requested.memoryLimitBytes());
    if (qos == QosClass.GUARANTEED) {
      return new Resources(cpuRequest, cpuRequest, memoryLimit, memoryLimit);
    }
    long cpuLimit = quotaToMilliCpu(requested.cpuQuota(), requested.cpuPeriod());
    return new Resources(cpuRequest, cpuLimit, 0, memoryLimit);
  }

  /** Milli-CPUs from CPU shares; kubelet's minimum of 2 shares (no request) is 0. */
  static long sharesToMilliCpu(long shares) {
    if (shares == MIN_SHARES || shares <= 0) {
      return 0;
    }
    return roundedRatio(shares, SHARES_PER_CPU);
  }

  /** Milli-CPUs from a CFS quota and period; 0 (no limit) unless both are positive. */
  static long quotaToMilliCpu(long quota, long period) {
    if (quota <= 0 || period <= 0) {
      return 0;
    }
    return roundedRatio(quota, period);
  }

  // round(n * 1000 / d) in floating point as cri-resmgr does: no overflow for absurd inputs
  // (Math.round saturates), exact for every value kubelet produces.
  private static long roundedRatio(long numerator, long denominator) {
    return Math.round(numerator * 1000.0 / denominator);
  }
}
