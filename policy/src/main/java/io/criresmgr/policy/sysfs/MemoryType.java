package io.criresmgr.policy.sysfs;

import java.util.Locale;

/**
 * The kind of memory a NUMA node holds, as the {@code memory-type} annotation names it. CXL memory
 * expanders count as {@link #DRAM} (a far DRAM tier, see {@link NumaNode#far()}).
 */
public enum MemoryType {
  /** Ordinary memory (also CXL-attached memory). */
  DRAM,
  /** Persistent memory used as volatile memory: large and slow. */
  PMEM,
  /** High-bandwidth memory: small and fast. */
  HBM;

  private final String label = name().toLowerCase(Locale.ROOT);

  /**
   * The lower-case name used in annotations and specs ({@code dram}, {@code pmem}, {@code hbm}):
   * one string per type, not one per call (every grant's policy data holds them).
   */
  public String label() {
    return label;
  }
}
