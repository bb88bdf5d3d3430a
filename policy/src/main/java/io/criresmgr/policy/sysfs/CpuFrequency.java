package io.criresmgr.policy.sysfs;

import java.util.Objects;

/**
 * A CPU's frequency facts from {@code cpu<N>/cpufreq}; 0 and "" mean the file does not exist.
 *
 * @param minKhz {@code cpuinfo_min_freq}
 * @param maxKhz {@code cpuinfo_max_freq}
 * @param baseKhz {@code base_frequency}
 * @param epp {@code energy_performance_preference} ({@code performance}, {@code
 *     balance_performance}, {@code balance_power}, {@code power}, or "" when unknown)
 */
public record CpuFrequency(long minKhz, long maxKhz, long baseKhz, String epp) {
  /** Nothing known. */
  public static final CpuFrequency UNKNOWN = new CpuFrequency(0, 0, 0, "");

  /** Rejects negative values and a null EPP. */
  public CpuFrequency {
    Objects.requireNonNull(epp, "epp");
    if (minKhz < 0 || maxKhz < 0 || baseKhz < 0) {
      throw new IllegalArgumentException("negative frequency");
    }
  }
}
