package io.criresmgr.controllers.rdt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bitmask arithmetic of cache allocation, as goresctrl does it: dividing a cache among
 * partitions and placing a class inside its partition.
 */
final class CacheMasks {
  /** A partition or class without a value for a cache id gets all of it (goresctrl's default). */
  static final CacheSpec ALL = new CacheSpec(CacheSpec.Kind.PERCENT, 0, 100, 0, "100%");

  private CacheMasks() {}

  /**
   * The masks of {@code parts} (name order) for cache id {@code id}, given their values {@code
   * specs}: either all bitmasks (taken as they are, must not overlap) or all percentages (bits
   * shared out smallest request first, the largest takes what is left, then laid out from bit 0 in
   * partition order).
   */
  static Map<String, Long> partitions(
      String res, List<String> parts, List<CacheSpec> specs, int id, CacheInfo ci) {
    boolean absolute = specs.get(0).kind() == CacheSpec.Kind.BITMASK;
    for (CacheSpec s : specs) {
      if ((s.kind() == CacheSpec.Kind.BITMASK) != absolute) {
        throw new RdtException(
            "rdt partitions: "
                + res
                + " allocations of cache id "
                + id
                + " mix bitmasks and percentages, use one kind for all partitions");
      }
    }
    return absolute ? absolute(res, parts, specs, id, ci) : relative(res, parts, specs, id, ci);
  }

  private static Map<String, Long> absolute(
      String res, List<String> parts, List<CacheSpec> specs, int id, CacheInfo ci) {
    Map<String, Long> masks = new LinkedHashMap<>();
    long used = 0;
    for (int i = 0; i < parts.size(); i++) {
      long mask = specs.get(i).mask();
      String what =
          "rdt partition " + parts.get(i) + ": " + res + " allocation " + specs.get(i).text();
      if ((mask & ~ci.cbmMask()) != 0) {
        throw new RdtException(
            what + " for cache id " + id + " does not fit cbm_mask " + hex(ci.cbmMask()));
      }
      if ((mask & used) != 0) {
        throw new RdtException(what + " overlaps another partition's on cache id " + id);
      }
      checkMinBits(what, mask, ci);
      used |= mask;
      masks.put(parts.get(i), mask);
    }
    return masks;
  }

  private static Map<String, Long> relative(
      String res, List<String> parts, List<CacheSpec> specs, int id, CacheInfo ci) {
    int total = 0;
    for (int i = 0; i < parts.size(); i++) {
      if (specs.get(i).kind() == CacheSpec.Kind.PERCENT_RANGE) {
        throw new RdtException(
            "rdt partition "
                + parts.get(i)
                + ": "
                + res
                + " allocation "
                + specs.get(i).text()
                + ": percentage ranges are not supported for partitions");
      }
      total += specs.get(i).to();
    }
    if (total > 100) {
      throw new RdtException(
          "rdt partitions: "
              + res
              + " allocations of cache id "
              + id
              + " add up to "
              + total
              + "%, more than 100%");
    }
    int[] grants = grants(res, specs, id, ci);
    Map<String, Long> masks = new LinkedHashMap<>();
    int next = 0;
    for (int i = 0; i < parts.size(); i++) {
      masks.put(parts.get(i), CacheSpec.bits(next, next + grants[i]));
      next += grants[i];
    }
    return masks;
  }

  /** Bits per partition, smallest request first so that rounding up to the minimum still fits. */
  private static int[] grants(String res, List<CacheSpec> specs, int id, CacheInfo ci) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingInt(i -> specs.get(i).to()));
    int total = Long.numberOfTrailingZeros(~ci.cbmMask());
    int available = total;
    int[] grants = new int[specs.size()];
    for (int k = 0; k < order.size(); k++) {
      if (available < Math.max(1, ci.minCbmBits())) {
        throw new RdtException(
            "rdt partitions: not enough "
                + res
                + " bits for every partition on cache id "
                + id
                + " (cbm_mask "
                + hex(ci.cbmMask())
                + ", min_cbm_bits "
                + ci.minCbmBits()
                + ")");
      }
      int percentAvailable = available * 100 / total;
      int bits =
          Math.max(ci.minCbmBits(), specs.get(order.get(k)).to() * available / percentAvailable);
      if (bits > available || k == order.size() - 1) {
        bits = available;
      }
      grants[order.get(k)] = bits;
      available -= bits;
    }
    return grants;
  }

  /** Class value {@code spec} placed inside its partition's mask {@code base}. */
  static long overlay(String res, String cls, CacheSpec spec, long base, CacheInfo ci) {
    String what = "rdt class " + cls + ": " + res + " allocation " + spec.text();
    if (Long.bitCount(base) < ci.minCbmBits()) {
      throw new RdtException(
          what
              + ": its partition's mask "
              + hex(base)
              + " has fewer than min_cbm_bits "
              + ci.minCbmBits()
              + " bits");
    }
    int lsb = Long.numberOfTrailingZeros(base);
    if (spec.kind() == CacheSpec.Kind.BITMASK) {
      long mask = spec.mask() << lsb;
      if ((mask & ~base) != 0 || mask >>> lsb != spec.mask()) {
        throw new RdtException(
            what
                + " ("
                + hex(mask)
                + " shifted to the partition) does not fit its partition's mask "
                + hex(base));
      }
      checkMinBits(what, mask, ci);
      return mask;
    }
    return percentOf(spec, base, lsb, ci);
  }

  /** goresctrl's slice: bits (low-1)·n/100 to (high-1)·n/100, widened to min_cbm_bits. */
  private static long percentOf(CacheSpec spec, long base, int lsb, CacheInfo ci) {
    int n = Long.bitCount(base);
    int low = Math.max(1, spec.from());
    int from = (low - 1) * n / 100;
    int to = (spec.to() - 1) * n / 100;
    int gap = ci.minCbmBits() - (to - from + 1);
    if (gap > 0) {
      int down = Math.min(gap, from);
      from -= down;
      to = Math.min(n - 1, to + gap - down);
    }
    return CacheSpec.bits(lsb + from, lsb + to + 1);
  }

  static void checkMinBits(String what, long mask, CacheInfo ci) {
    if (Long.bitCount(mask) < ci.minCbmBits()) {
      throw new RdtException(
          what
              + ": mask "
              + hex(mask)
              + " has "
              + Long.bitCount(mask)
              + " bits, fewer than min_cbm_bits "
              + ci.minCbmBits());
    }
  }

  static String hex(long mask) {
    return Long.toHexString(mask);
  }
}
