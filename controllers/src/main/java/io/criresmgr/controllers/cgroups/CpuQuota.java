package io.criresmgr.controllers.cgroups;

/**
 * A CFS bandwidth limit: at most {@code quotaUs} of CPU time in every {@code periodUs}.
 *
 * @param quotaUs microseconds per period, at least 1000, or {@link #UNLIMITED}
 * @param periodUs the period in microseconds, 1000 to 1000000 (the kernel's range)
 */
public record CpuQuota(long quotaUs, long periodUs) {
  /** No limit: written as {@code -1} on v1 and {@code max} on v2. */
  public static final long UNLIMITED = -1;

  /** The kernel's default period. */
  public static final long DEFAULT_PERIOD_US = 100_000;

  /** Checks the kernel's ranges. */
  public CpuQuota {
    if (periodUs < 1000 || periodUs > 1_000_000) {
      throw new CgroupException(
          "invalid cpu period " + periodUs + "us: expected 1000 to 1000000 microseconds");
    }
    if (quotaUs != UNLIMITED && quotaUs < 1000) {
      throw new CgroupException(
          "invalid cpu quota " + quotaUs + "us: expected -1 (unlimited) or at least 1000");
    }
  }

  /** No limit with the default period. */
  public static CpuQuota unlimited() {
    return new CpuQuota(UNLIMITED, DEFAULT_PERIOD_US);
  }

  /** The v2 {@code cpu.max} content: {@code "<quota> <period>"} or {@code "max <period>"}. */
  public String cpuMax() {
    return (quotaUs == UNLIMITED ? "max" : Long.toString(quotaUs)) + " " + periodUs;
  }
}
