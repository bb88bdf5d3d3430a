package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.util.Objects;

/**
 * One CPU cache as sysfs describes it in {@code cpu<N>/cache/index<I>}: its level, type and the
 * online CPUs sharing it ({@code shared_cpu_list}).
 *
 * @param level {@code level}: 1, 2, 3...
 * @param type {@code type}
 * @param cpus {@code shared_cpu_list}, restricted to online CPUs; never empty
 */
public record CpuCache(int level, Type type, CpuSet cpus) {
  /** Checks for nulls, a level of at least 1 and at least one CPU. */
  public CpuCache {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(cpus, "cpus");
    if (level < 1) {
      throw new IllegalArgumentException("cache level " + level + ", expected 1 or more");
    }
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("L" + level + " " + type + " cache without CPUs");
    }
  }

  /** The {@code type} file's values. */
  public enum Type {
    /** {@code Data}. */
    DATA,
    /** {@code Instruction}. */
    INSTRUCTION,
    /** {@code Unified}: data and instructions. */
    UNIFIED;

    /** The sysfs spelling, e.g. {@code Unified}. */
    public String label() {
      String name = name();
      return name.charAt(0) + name.substring(1).toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Whether it caches data (a data or unified cache). */
  public boolean holdsData() {
    return type != Type.INSTRUCTION;
  }
}
