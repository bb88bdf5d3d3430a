package io.criresmgr.controllers.cpu;

import java.util.Objects;

/**
 * A CPU class: the frequency limits of the CPUs a policy puts in it. Frequencies are in kHz, as
 * written to sysfs; 0 leaves a limit alone.
 *
 * @param name the name policies use ({@code CPUClass}, {@code IdleCPUClass}), case-sensitive
 * @param minFreq cpufreq {@code scaling_min_freq} of each CPU of the class
 * @param maxFreq cpufreq {@code scaling_max_freq} of each CPU of the class
 * @param energyPerformancePreference parsed as in cri-resmgr, not enforced
 * @param uncoreMinFreq uncore {@code min_freq_khz} of each die holding CPUs of the class (the
 *     largest of the classes present on the die wins)
 * @param uncoreMaxFreq uncore {@code max_freq_khz} of each die holding CPUs of the class (the
 *     largest of the classes present on the die wins)
 */
public record CpuClass(
    String name,
    long minFreq,
    long maxFreq,
    long energyPerformancePreference,
    long uncoreMinFreq,
    long uncoreMaxFreq) {
  /** The largest value a limit may have: the kernel parses them as 32-bit unsigned integers. */
  public static final long MAX_VALUE = 0xFFFF_FFFFL;

  /** Checks the name, the ranges, and that no minimum exceeds its maximum. */
  public CpuClass {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("class name must not be empty");
    }
    for (long v :
        new long[] {minFreq, maxFreq, energyPerformancePreference, uncoreMinFreq, uncoreMaxFreq}) {
      if (v < 0 || v > MAX_VALUE) {
        throw new IllegalArgumentException("class " + name + ": value " + v + " out of range");
      }
    }
    checkOrder(name, "minFreq", minFreq, "maxFreq", maxFreq);
    checkOrder(name, "uncoreMinFreq", uncoreMinFreq, "uncoreMaxFreq", uncoreMaxFreq);
  }

  private static void checkOrder(String name, String minKey, long min, String maxKey, long max) {
    if (min != 0 && max != 0 && min > max) {
      throw new IllegalArgumentException(
          "class " + name + ": " + minKey + " " + min + " is above " + maxKey + " " + max);
    }
  }

  /** Whether the class sets a cpufreq limit. */
  public boolean setsFrequency() {
    return minFreq != 0 || maxFreq != 0;
  }

  /** Whether the class sets an uncore limit. */
  public boolean setsUncore() {
    return uncoreMinFreq != 0 || uncoreMaxFreq != 0;
  }
}
