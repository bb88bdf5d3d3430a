package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.policy.OptionsReader;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Parses one entry of {@code policy.balloons.BalloonTypes} into a {@link BalloonType}. */
final class BalloonTypeParser {
  /** Balloon type keys, in the order error messages list them. */
  static final List<String> KEYS =
      List.of(
          "Name",
          "Namespaces",
          "MatchExpressions",
          "MinCPUs",
          "MaxCPUs",
          "MinBalloons",
          "MaxBalloons",
          "AllocatorPriority",
          "CPUClass",
          "PreferSpreadingPods",
          "PreferPerNamespaceBalloon",
          "PreferNewBalloons",
          "ShareIdleCPUsInSame",
          "PreferSpreadOnPhysicalCores",
          "AllocatorTopologyBalancing",
          "PinMemory",
          "MemoryTypes",
          "HideHyperthreads",
          "PreferIsolCpus",
          "PreferCoreType",
          "GroupBy",
          "PreferCloseToDevices",
          "Loads");

  private static final Map<String, String> UNSUPPORTED =
      NriOnlyKeys.TYPE.stream().collect(Collectors.toUnmodifiableMap(k -> k, k -> ""));
  private static final List<String> EXPRESSION_KEYS = List.of("Key", "Operator", "Values");
  private static final Map<String, CpuPriority> PRIORITIES =
      Map.of(
          "high",
          CpuPriority.HIGH,
          "0",
          CpuPriority.HIGH,
          "normal",
          CpuPriority.NORMAL,
          "1",
          CpuPriority.NORMAL,
          "low",
          CpuPriority.LOW,
          "2",
          CpuPriority.LOW,
          "none",
          CpuPriority.NONE,
          "3",
          CpuPriority.NONE);
  private static final Map<String, ShareLevel> LEVELS =
      byLabel(ShareLevel.values(), l -> l.label());
  private static final Map<String, CoreType> CORE_TYPES =
      Map.of("performance", CoreType.PERFORMANCE, "efficient", CoreType.EFFICIENT);

  private BalloonTypeParser() {}

  /**
   * Parses {@code node}, the entry at {@code index}.
   *
   * @throws PolicyException naming {@code policy.balloons.BalloonTypes[<index>]}, the field and,
   *     when known, the type's name
   */
  static BalloonType parse(int index, JsonNode node) {
    String where = "balloons.BalloonTypes[" + index + "]";
    try {
      NriOnlyKeys.reject("policy." + where, node, UNSUPPORTED, KEYS);
      return read(OptionsReader.of(where, node, KEYS));
    } catch (IllegalArgumentException e) { // the record's own checks name the type already
      throw new PolicyException("policy." + where + ": " + e.getMessage(), e);
    } catch (PolicyException e) {
      String name = peekName(node);
      throw name.isEmpty()
          ? e
          : new PolicyException(e.getMessage() + " (balloon type \"" + name + "\")", e);
    }
  }

  private static String peekName(JsonNode node) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (e.getKey().equalsIgnoreCase("Name") && e.getValue().isTextual()) {
          return e.getValue().textValue();
        }
      }
    }
    return "";
  }

  private static BalloonType read(OptionsReader r) {
    String name = r.string("Name", "");
    return BalloonType.builder(name)
        .namespaces(Values.strings(r, "Namespaces", "expected a list of namespace patterns"))
        .matchExpressions(expressions(r))
        .minCpus(Values.integer(r, "MinCPUs", 0))
        .maxCpus(Values.integer(r, "MaxCPUs", 0))
        .minBalloons(Values.integer(r, "MinBalloons", 0))
        .maxBalloons(Values.integer(r, "MaxBalloons", 0))
        .allocatorPriority(priority(r))
        .cpuClass(r.string("CPUClass", ""))
        .preferSpreadingPods(r.bool("PreferSpreadingPods", false))
        .preferPerNamespaceBalloon(r.bool("PreferPerNamespaceBalloon", false))
        .preferNewBalloons(r.bool("PreferNewBalloons", false))
        .shareIdleCpusInSame(
            Values.choice(
                r,
                "ShareIdleCPUsInSame",
                LEVELS,
                "expected system, package, die, numa, l2cache, core or thread"))
        .preferSpreadOnPhysicalCores(Values.optionalBool(r, "PreferSpreadOnPhysicalCores"))
        .allocatorTopologyBalancing(Values.optionalBool(r, "AllocatorTopologyBalancing"))
        .pinMemory(Values.optionalBool(r, "PinMemory"))
        .memoryTypes(memoryTypes(r))
        .hideHyperthreads(r.bool("HideHyperthreads", false))
        .preferIsolCpus(r.bool("PreferIsolCpus", false))
        .preferCoreType(
            Values.choice(r, "PreferCoreType", CORE_TYPES, "expected performance or efficient"))
        .groupBy(groupBy(r, name))
        .preferCloseToDevices(
            Values.strings(r, "PreferCloseToDevices", "expected a list of device paths"))
        .loads(Values.strings(r, "Loads", "expected a list of load class names"))
        .build();
  }

  private static GroupBy groupBy(OptionsReader r, String type) {
    try {
      return new GroupBy(r.string("GroupBy", ""));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("balloon type \"" + type + "\": " + e.getMessage(), e);
    }
  }

  private static CpuPriority priority(OptionsReader r) {
    JsonNode v = r.field("AllocatorPriority").orElse(null);
    if (v == null) {
      return CpuPriority.HIGH;
    }
    CpuPriority p =
        v.isTextual() || v.isIntegralNumber()
            ? PRIORITIES.get(v.asText().toLowerCase(Locale.ROOT))
            : null;
    if (p == null) {
      throw r.invalid(
          "AllocatorPriority", v, "expected high, normal, low or none (or 0, 1, 2 or 3)");
    }
    return p;
  }

  private static Set<MemoryType> memoryTypes(OptionsReader r) {
    Set<MemoryType> out = EnumSet.noneOf(MemoryType.class);
    for (String s : Values.strings(r, "MemoryTypes", "expected a list of DRAM, PMEM or HBM")) {
      MemoryType t =
          Arrays.stream(MemoryType.values())
              .filter(m -> m.name().equalsIgnoreCase(s))
              .findFirst()
              .orElseThrow(
                  () ->
                      r.invalid("MemoryTypes", TextNode.valueOf(s), "expected DRAM, PMEM or HBM"));
      out.add(t);
    }
    return out;
  }

  private static List<Expression> expressions(OptionsReader r) {
    JsonNode v = r.field("MatchExpressions").orElse(null);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw r.invalid("MatchExpressions", v, "expected a list of {key, operator, values}");
    }
    List<Expression> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      out.add(expression(r.path("MatchExpressions[" + i + "]"), v.get(i)));
    }
    return out;
  }

  private static Expression expression(String path, JsonNode node) {
    // OptionsReader prefixes "policy."; strip it to keep one path.
    OptionsReader r = OptionsReader.of(path.substring("policy.".length()), node, EXPRESSION_KEYS);
    try {
      String op = r.string("Operator", "");
      if (op.isEmpty()) {
        throw new IllegalArgumentException("operator is missing");
      }
      Expression.Operator operator = Expression.Operator.parse(op);
      String key = r.string("Key", "");
      if (key.isEmpty() && operator != Expression.Operator.ALWAYS_TRUE) {
        throw new IllegalArgumentException("key is missing");
      }
      return new Expression(key, operator, Values.strings(r, "Values", "expected a list"));
    } catch (IllegalArgumentException e) {
      throw new PolicyException(path + ": " + e.getMessage(), e);
    }
  }

  private static <T> Map<String, T> byLabel(T[] values, Function<T, String> label) {
    return Arrays.stream(values).collect(Collectors.toUnmodifiableMap(label, v -> v));
  }
}
