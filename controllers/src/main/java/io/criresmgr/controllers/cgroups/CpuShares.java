package io.criresmgr.controllers.cgroups;

/**
 * CPU shares (cgroup v1 {@code cpu.shares}), with their cgroup v2 {@code cpu.weight}.
 *
 * @param shares 2 to 262144, the range the kernel accepts without clamping
 */
public record CpuShares(long shares) {
  /** The smallest value. */
  public static final long MIN = 2;

  /** The largest value. */
  public static final long MAX = 262_144;

  /** Checks the range. */
  public CpuShares {
    if (shares < MIN || shares > MAX) {
      throw new CgroupException(
          "invalid cpu shares " + shares + ": expected " + MIN + " to " + MAX);
    }
  }

  /**
   * The v2 weight, 1 to 10000, by the formula of Kubernetes and runc: {@code 1 + ((shares - 2) *
   * 9999) / 262142}, so 2 maps to 1, 1024 to 39 and 262144 to 10000.
   */
  public long weight() {
    return 1 + ((shares - 2) * 9999) / 262_142;
  }

  /**
   * The weight of the newer conversion (crun 1.23, runc 1.3: {@code 10^((l^2 + 125 l) / 612 -
   * 7/34)} rounded up, {@code l = log2(shares)}), which maps the default 1024 shares to the default
   * weight 100. A runtime may have used either, so both count as applied.
   */
  public long quadraticWeight() {
    double l = Math.log((double) shares) / Math.log(2);
    double exponent = (l * l + 125 * l) / 612.0 - 7.0 / 34.0;
    return Math.max(1, Math.min(10_000, (long) Math.ceil(Math.pow(10, exponent))));
  }
}
