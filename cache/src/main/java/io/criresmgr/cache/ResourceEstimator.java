package io.criresmgr.cache;

/**
 * Estimates Kubernetes requests and limits from CRI linux resources when the webhook's annotation
 * is absent (cri-resmgr {@code cache/utils.go estimateComputeResources}), and a Burstable
 * container's memory request from the OOM score adjustment kubelet derived from it.
 */
public final class ResourceEstimator {
  /** The shares kubelet gives a container without a CPU request (cgroup's minimum). */
  static final long MIN_SHARES = 2;

  /** Shares kubelet gives per CPU. */
  static final long SHARES_PER_CPU = 1024;

  /**
   * The lowest OOM score adjustment kubelet gives a Burstable container: {@code 1000 - 997}, 997
   * being what Guaranteed containers get ({@code -997}), negated.
   */
  static final long MIN_BURSTABLE_OOM_SCORE_ADJ = 3;

  /**
   * The highest: BestEffort's 1000, minus 1. Kubelet gives it to every request below 2/1000 of the
   * node's memory, no request included, so it tells nothing.
   */
  static final long MAX_BURSTABLE_OOM_SCORE_ADJ = 999;

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

  /**
   * {@link #estimate(LinuxResources, QosClass)}, plus a Burstable container's memory request from
   * {@code oomScoreAdj} on a node with {@code memoryCapacity} bytes (see {@link
   * #memoryRequestFromOomScoreAdj}); other classes, or an adjustment that tells nothing, get none.
   */
  public static Resources estimate(
      LinuxResources requested, QosClass qos, long oomScoreAdj, long memoryCapacity) {
    Resources estimated = estimate(requested, qos);
    if (qos != QosClass.BURSTABLE) {
      return estimated;
    }
    long memoryRequest =
        memoryRequestFromOomScoreAdj(oomScoreAdj, memoryCapacity, estimated.memoryLimitBytes());
    return new Resources(
        estimated.cpuRequestMilli(),
        estimated.cpuLimitMilli(),
        memoryRequest,
        estimated.memoryLimitBytes());
  }

  /**
   * The memory request kubelet derived {@code oomScoreAdj} from, on a node with {@code
   * memoryCapacity} bytes: kubelet ({@code pkg/kubelet/qos/policy.go}) computes {@code 1000 - (1000
   * * request) / capacity} in integers, raised to 3 and lowered from 1000 to 999. Each value stands
   * for a range of requests; the smallest is returned (as nri-plugins does), at most {@code
   * memoryLimit} when that is set. 0 (no estimate) when the capacity is unknown or the value is
   * outside 3..998: -997 (Guaranteed or critical pods), 1000 (BestEffort) and 999 (no memory
   * request or a tiny one) tell nothing.
   */
  public static long memoryRequestFromOomScoreAdj(
      long oomScoreAdj, long memoryCapacity, long memoryLimit) {
    if (memoryCapacity < 1000
        || oomScoreAdj < MIN_BURSTABLE_OOM_SCORE_ADJ
        || oomScoreAdj >= MAX_BURSTABLE_OOM_SCORE_ADJ) {
      return 0;
    }
    // The smallest request with (1000 * request) / capacity == permille is
    // ceil(permille * capacity / 1000), computed without overflow.
    long permille = 1000 - oomScoreAdj;
    long request =
        permille * (memoryCapacity / 1000) + (permille * (memoryCapacity % 1000) + 999) / 1000;
    return memoryLimit > 0 ? Math.min(request, memoryLimit) : request;
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
