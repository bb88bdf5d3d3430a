package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.sysfs.MemoryType;
import java.util.Set;

/**
 * Amounts of memory in bytes by type (cri-resmgr's {@code memoryMap}): a pool's capacity, what is
 * granted from it, or what one grant holds.
 *
 * @param dram ordinary memory (also CXL-attached)
 * @param pmem persistent memory
 * @param hbm high-bandwidth memory
 */
record Memory(long dram, long pmem, long hbm) {
  /** No memory. */
  static final Memory NONE = new Memory(0, 0, 0);

  /** The order memory is taken in: PMEM, then DRAM, then HBM (cri-resmgr's). */
  static final MemoryType[] ALLOCATION_ORDER = {MemoryType.PMEM, MemoryType.DRAM, MemoryType.HBM};

  /** The amount of {@code type}. */
  long get(MemoryType type) {
    return switch (type) {
      case DRAM -> dram;
      case PMEM -> pmem;
      case HBM -> hbm;
    };
  }

  /** This amount with {@code bytes} more of {@code type}. */
  Memory plus(MemoryType type, long bytes) {
    return switch (type) {
      case DRAM -> new Memory(dram + bytes, pmem, hbm);
      case PMEM -> new Memory(dram, pmem + bytes, hbm);
      case HBM -> new Memory(dram, pmem, hbm + bytes);
    };
  }

  /** The sum per type. */
  Memory plus(Memory other) {
    return new Memory(dram + other.dram, pmem + other.pmem, hbm + other.hbm);
  }

  /** The difference per type. */
  Memory minus(Memory other) {
    return new Memory(dram - other.dram, pmem - other.pmem, hbm - other.hbm);
  }

  /** All types together. */
  long total() {
    return dram + pmem + hbm;
  }

  /** The types with a non-zero amount. */
  Set<MemoryType> types() {
    Set<MemoryType> types = java.util.EnumSet.noneOf(MemoryType.class);
    for (MemoryType t : MemoryType.values()) {
      if (get(t) != 0) {
        types.add(t);
      }
    }
    return types;
  }

  /** Like {@code DRAM 2.00G, PMEM 4.00G}; {@code -} for none. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (MemoryType t : MemoryType.values()) {
      if (get(t) != 0) {
        out.append(out.length() > 0 ? ", " : "").append(t).append(' ').append(pretty(get(t)));
      }
    }
    return out.length() == 0 ? "-" : out.toString();
  }

  /** {@code bytes} in k, M, G or T units with two decimals, as cri-resmgr prints memory. */
  static String pretty(long bytes) {
    String[] units = {"", "k", "M", "G", "T"};
    int unit = 0;
    double value = bytes;
    while (unit < units.length - 1 && Math.abs(value) >= 1024) {
      value /= 1024;
      unit++;
    }
    return String.format(java.util.Locale.ROOT, "%.2f%s", value, units[unit]);
  }
}
