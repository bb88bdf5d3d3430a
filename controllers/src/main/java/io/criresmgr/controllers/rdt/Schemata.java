package io.criresmgr.controllers.rdt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Computes each class's schemata lines from the configuration and the discovered hardware.
 *
 * <p>Partition percentages are laid out one after another per cache id, partitions in name order,
 * from the lowest bit ({@code "60%"} and {@code "40%"} of 11 bits: bits 0-5 and 6-10); a partition
 * may take at most 100% in total. Class percentages and ranges are relative to the partition's
 * mask; class bitmasks are relative to the partition's lowest bit. Memory bandwidth of a class is
 * its percentage of the partition's, rounded up to {@code bandwidth_gran}, at least {@code
 * min_bandwidth}.
 */
public final class Schemata {
  private Schemata() {}

  /**
   * The lines per class name (in {@link RdtConfig#classes()} order), e.g. {@code L3:0=3f;1=3f} and
   * {@code MB:0=50;1=50}.
   *
   * @throws RdtException if an allocation does not fit the hardware, a mask has fewer than {@code
   *     min_cbm_bits} bits, there are more classes than {@code num_closids} allows, or a resource
   *     is configured but unsupported and not optional
   */
  public static Map<String, List<String>> of(RdtConfig config, Resctrl resctrl) {
    Map<String, List<String>> lines = new LinkedHashMap<>();
    config.classes().forEach(c -> lines.put(c.name(), new ArrayList<>()));
    cacheLines(
        "L2", resctrl.l2(), config.l2Optional(), config, RdtPartition::l2, RdtClass::l2, lines);
    cacheLines(
        "L3", resctrl.l3(), config.l3Optional(), config, RdtPartition::l3, RdtClass::l3, lines);
    mbLines(resctrl.mb(), config, lines);
    Map<String, List<String>> result = new LinkedHashMap<>();
    lines.forEach((k, v) -> result.put(k, List.copyOf(v)));
    return result;
  }

  private static void cacheLines(
      String res,
      Optional<CacheInfo> info,
      boolean optional,
      RdtConfig config,
      Function<RdtPartition, Optional<PerCacheId<CacheSpec>>> part,
      Function<RdtClass, Optional<PerCacheId<CacheSpec>>> cls,
      Map<String, List<String>> lines) {
    List<RdtPartition> parts =
        config.partitions().stream().filter(p -> part.apply(p).isPresent()).toList();
    if (parts.isEmpty() || !supported(res, info.isPresent(), optional)) {
      return;
    }
    CacheInfo ci = info.orElseThrow();
    checkClosids(res, ci.numClosids(), config);
    Map<Integer, Integer> used = new HashMap<>();
    for (RdtPartition p : parts) {
      Map<Integer, Long> masks = new LinkedHashMap<>();
      for (int id : ci.cacheIds()) {
        masks.put(id, partitionMask(res, p, part.apply(p).orElseThrow(), id, ci, used));
      }
      for (RdtClass c : p.classes()) {
        StringBuilder line = new StringBuilder(res).append(':');
        for (Map.Entry<Integer, Long> e : masks.entrySet()) {
          Optional<CacheSpec> spec = cls.apply(c).flatMap(a -> a.get(e.getKey()));
          long mask = spec.isEmpty() ? e.getValue() : classMask(res, c, spec.get(), e.getValue());
          checkMinBits(res + " of class " + c.name(), mask, ci);
          line.append(line.length() > res.length() + 1 ? ";" : "")
              .append(e.getKey())
              .append('=')
              .append(Long.toHexString(mask));
        }
        lines.get(c.name()).add(line.toString());
      }
    }
  }

  private static long partitionMask(
      String res,
      RdtPartition p,
      PerCacheId<CacheSpec> alloc,
      int id,
      CacheInfo ci,
      Map<Integer, Integer> used) {
    CacheSpec spec =
        alloc
            .get(id)
            .orElseThrow(
                () ->
                    new RdtException(
                        "rdt partition "
                            + p.name()
                            + ": no "
                            + res
                            + " allocation for cache id "
                            + id));
    int bits = ci.bits();
    long mask;
    if (!spec.percent()) {
      mask = spec.mask();
    } else if (spec.from() == 0) {
      int start = used.getOrDefault(id, 0);
      if (start + spec.to() > 100) {
        throw new RdtException(
            "rdt partitions: "
                + res
                + " allocation of cache id "
                + id
                + " exceeds 100% with partition "
                + p.name()
                + " ("
                + spec.text()
                + ")");
      }
      used.put(id, start + spec.to());
      mask = CacheSpec.bits(bits * start / 100, bits * (start + spec.to()) / 100);
    } else {
      mask = CacheSpec.bits(bits * spec.from() / 100, bits * spec.to() / 100);
    }
    if ((mask & ~ci.cbmMask()) != 0 || mask == 0) {
      throw new RdtException(
          "rdt partition "
              + p.name()
              + ": "
              + res
              + " allocation "
              + spec.text()
              + " for cache id "
              + id
              + " does not fit cbm_mask "
              + Long.toHexString(ci.cbmMask()));
    }
    checkMinBits(res + " of partition " + p.name(), mask, ci);
    return mask;
  }

  private static long classMask(String res, RdtClass c, CacheSpec spec, long partition) {
    int low = Long.numberOfTrailingZeros(partition);
    int width = Long.bitCount(partition);
    long mask =
        spec.percent()
            ? CacheSpec.bits(low + width * spec.from() / 100, low + (width * spec.to() + 99) / 100)
            : spec.mask() << low;
    if ((mask & ~partition) != 0 || mask == 0) {
      throw new RdtException(
          "rdt class "
              + c.name()
              + ": "
              + res
              + " allocation "
              + spec.text()
              + " does not fit its partition's mask "
              + Long.toHexString(partition));
    }
    return mask;
  }

  private static void mbLines(
      Optional<MbInfo> info, RdtConfig config, Map<String, List<String>> lines) {
    boolean any = config.partitions().stream().anyMatch(p -> p.mb().isPresent());
    if (!any || !supported("MB", info.isPresent(), config.mbOptional())) {
      return;
    }
    MbInfo mb = info.orElseThrow();
    checkClosids("MB", mb.numClosids(), config);
    for (RdtPartition p : config.partitions()) {
      for (RdtClass c : p.classes()) {
        StringBuilder line = new StringBuilder("MB:");
        for (int id : mb.cacheIds()) {
          int part = p.mb().flatMap(a -> a.get(id)).orElse(100);
          int pct = c.mb().flatMap(a -> a.get(id)).orElse(100);
          line.append(line.length() > 3 ? ";" : "")
              .append(id)
              .append('=')
              .append(bandwidth(part * pct, mb));
        }
        lines.get(c.name()).add(line.toString());
      }
    }
  }

  /** {@code product} (percent times percent) as a percentage the hardware accepts. */
  private static int bandwidth(int product, MbInfo mb) {
    int gran = Math.max(1, mb.bandwidthGran());
    int pct = (product + 99) / 100;
    pct = (pct + gran - 1) / gran * gran;
    return Math.min(100, Math.max(mb.minBandwidth(), pct));
  }

  private static boolean supported(String res, boolean present, boolean optional) {
    if (!present && !optional) {
      throw new RdtException(
          "rdt: "
              + res
              + " allocation is configured but not supported by"
              + " the hardware (set rdt.options."
              + res.toLowerCase(java.util.Locale.ROOT)
              + ".optional: true to ignore it)");
    }
    return present;
  }

  private static void checkClosids(String res, int closids, RdtConfig config) {
    int needed = config.classes().size() + 1;
    if (needed > closids) {
      throw new RdtException(
          "rdt: "
              + config.classes().size()
              + " classes and the root group need "
              + needed
              + " "
              + res
              + " CLOSIDs, num_closids is "
              + closids);
    }
  }

  private static void checkMinBits(String what, long mask, CacheInfo ci) {
    if (Long.bitCount(mask) < ci.minCbmBits()) {
      throw new RdtException(
          "rdt: "
              + what
              + ": mask "
              + Long.toHexString(mask)
              + " has "
              + Long.bitCount(mask)
              + " bits, fewer than min_cbm_bits "
              + ci.minCbmBits());
    }
  }
}
