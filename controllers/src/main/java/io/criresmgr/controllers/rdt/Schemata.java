package io.criresmgr.controllers.rdt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Computes each class's schemata lines from the configuration and the discovered hardware, with
 * goresctrl's arithmetic (verified against its {@code pkg/rdt} tests; see docs/controllers/rdt.md).
 *
 * <p>Cache: per cache id, partitions take either explicit non-overlapping bitmasks or percentages
 * of {@code cbm_mask} that add up to at most 100%; percentages become bit counts smallest first (at
 * least {@code min_cbm_bits}; the largest partition takes every bit left) and are laid out from bit
 * 0 in partition name order. A class's percentage or range {@code A-B%} is the slice of its
 * partition from bit ⌊(A-1)·n/100⌋ to ⌊(B-1)·n/100⌋ (A at least 1), widened to {@code
 * min_cbm_bits}; a class bitmask is shifted to the partition's lowest bit. Memory bandwidth of a
 * class is ⌊class% · partition% / 100⌋, at least {@code min_bandwidth} (the kernel rounds to {@code
 * bandwidth_gran}).
 */
public final class Schemata {
  private Schemata() {}

  /**
   * The lines per class name (in {@link RdtConfig#classes()} order), e.g. {@code L3:0=3f;1=3f} and
   * {@code MB:0=50;1=50}.
   *
   * @throws RdtException if an allocation does not fit the hardware or the other partitions, a mask
   *     has fewer than {@code min_cbm_bits} bits, there are more classes than {@code num_closids}
   *     allows, or a resource is configured but unsupported and not optional
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
    String key = res.toLowerCase(Locale.ROOT) + "Allocation";
    List<RdtPartition> all = config.partitions();
    checkClassesHavePartitionValue(
        key, all, p -> part.apply(p).isPresent(), c -> cls.apply(c).isPresent());
    List<RdtPartition> parts = all.stream().filter(p -> part.apply(p).isPresent()).toList();
    if (parts.isEmpty() || !supported(res, info.isPresent(), optional)) {
      return;
    }
    if (parts.size() < all.size()) {
      throw new RdtException(
          "rdt partitions: " + key + " is given for some partitions only, give it for all or none");
    }
    CacheInfo ci = info.orElseThrow();
    checkClosids(res, ci.numClosids(), config);
    Map<Integer, Map<String, Long>> byId = partitionMasks(res, parts, part, ci);
    for (RdtPartition p : parts) {
      for (RdtClass c : p.classes()) {
        linesOf(lines, c).add(classLine(res, c, cls.apply(c), p.name(), byId, ci));
      }
    }
  }

  /** Cache id to partition name to mask. */
  private static Map<Integer, Map<String, Long>> partitionMasks(
      String res,
      List<RdtPartition> parts,
      Function<RdtPartition, Optional<PerCacheId<CacheSpec>>> part,
      CacheInfo ci) {
    List<String> names = parts.stream().map(RdtPartition::name).toList();
    Map<Integer, Map<String, Long>> byId = new LinkedHashMap<>();
    for (int id : ci.cacheIds()) {
      List<CacheSpec> specs =
          parts.stream()
              .map(p -> part.apply(p).orElseThrow().get(id).orElse(CacheMasks.ALL))
              .toList();
      byId.put(id, CacheMasks.partitions(res, names, specs, id, ci));
    }
    return byId;
  }

  /** One class's line, e.g. {@code L3:0=7f;1=7f}. */
  private static String classLine(
      String res,
      RdtClass c,
      Optional<PerCacheId<CacheSpec>> alloc,
      String partition,
      Map<Integer, Map<String, Long>> byId,
      CacheInfo ci) {
    StringBuilder line = new StringBuilder(res).append(':');
    for (int id : ci.cacheIds()) {
      long base =
          Objects.requireNonNull(
              Objects.requireNonNull(byId.get(id), "partitionMasks covers every cache id")
                  .get(partition),
              "partitionMasks covers every partition");
      Optional<CacheSpec> spec = alloc.map(a -> a.get(id).orElse(CacheMasks.ALL));
      long mask = spec.isEmpty() ? base : CacheMasks.overlay(res, c.name(), spec.get(), base, ci);
      line.append(line.length() > res.length() + 1 ? ";" : "")
          .append(id)
          .append('=')
          .append(CacheMasks.hex(mask));
    }
    return line.toString();
  }

  private static void checkClassesHavePartitionValue(
      String key,
      List<RdtPartition> parts,
      java.util.function.Predicate<RdtPartition> partHas,
      java.util.function.Predicate<RdtClass> classHas) {
    for (RdtPartition p : parts) {
      for (RdtClass c : p.classes()) {
        if (classHas.test(c) && !partHas.test(p)) {
          throw new RdtException(
              "rdt partition "
                  + p.name()
                  + ": class "
                  + c.name()
                  + " has "
                  + key
                  + " but the partition has none");
        }
      }
    }
  }

  private static void mbLines(
      Optional<MbInfo> info, RdtConfig config, Map<String, List<String>> lines) {
    checkClassesHavePartitionValue(
        "mbAllocation", config.partitions(), p -> p.mb().isPresent(), c -> c.mb().isPresent());
    boolean any = config.partitions().stream().anyMatch(p -> p.mb().isPresent());
    if (!any || !supported("MB", info.isPresent(), config.mbOptional())) {
      return;
    }
    MbInfo mb = info.orElseThrow();
    checkClosids("MB", mb.numClosids(), config);
    for (RdtPartition p : config.partitions()) {
      if (p.mb().isEmpty()) {
        continue;
      }
      for (RdtClass c : p.classes()) {
        StringBuilder line = new StringBuilder("MB:");
        for (int id : mb.cacheIds()) {
          int base =
              Math.max(mb.minBandwidth(), percent(p.mb().get(), id, "partition " + p.name()));
          int pct = c.mb().isEmpty() ? 100 : percent(c.mb().get(), id, "class " + c.name());
          line.append(line.length() > 3 ? ";" : "")
              .append(id)
              .append('=')
              .append(Math.max(mb.minBandwidth(), pct * base / 100));
        }
        linesOf(lines, c).add(line.toString());
      }
    }
  }

  private static int percent(PerCacheId<Integer> alloc, int id, String what) {
    return alloc
        .get(id)
        .orElseThrow(
            () ->
                new RdtException(
                    "rdt "
                        + what
                        + ": mbAllocation has no value for cache id "
                        + id
                        + " (give \"all\" or list every id)"));
  }

  private static boolean supported(String res, boolean present, boolean optional) {
    if (!present && !optional) {
      throw new RdtException(
          "rdt: "
              + res
              + " allocation is configured but not supported by"
              + " the hardware (set rdt.options."
              + res.toLowerCase(Locale.ROOT)
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

  /** The lines of class {@code c}: the caller made one list for every configured class. */
  private static List<String> linesOf(Map<String, List<String>> lines, RdtClass c) {
    return Objects.requireNonNull(lines.get(c.name()), "every class has its lines");
  }
}
