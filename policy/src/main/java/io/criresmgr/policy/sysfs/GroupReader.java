package io.criresmgr.policy.sysfs;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.sysfs.TopologySpec.Group;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads one group of a topology spec from its JSON object; errors are {@link
 * IllegalArgumentException}s {@code key: value: why}, the value as it was written.
 */
final class GroupReader {
  /** The keys a group may have. */
  static final List<String> KEYS =
      List.of(
          "mem",
          "nvmem",
          "cores",
          "threads",
          "nodes",
          "dies",
          "packages",
          "node-dist",
          "cpus-present",
          "mem-type",
          "core-type",
          "cpufreq",
          "l3-cores",
          "l2-cores",
          "dist-same-die",
          "dist-same-package",
          "dist-other-package");

  private static final List<String> CPUFREQ_KEYS = List.of("min", "max", "base", "epp");
  private static final List<String> EPPS =
      List.of("performance", "balance_performance", "balance_power", "power");

  private final JsonNode node;
  private final int defaultThreads;

  /** A reader of {@code node}, a group object; {@code defaultThreads} if it has no threads. */
  GroupReader(JsonNode node, int defaultThreads) {
    this.node = node;
    this.defaultThreads = defaultThreads;
  }

  /** The group. */
  Group group() {
    int cores = optional("cores", 0, 0);
    if (cores == 0 && node.has("threads")) {
      throw SpecChecks.invalid(
          "threads", node.get("threads").toString(), "a group without cores has no threads");
    }
    long mem = node.has("mem") ? size("mem") : 0;
    MemoryType memType = memType();
    if (node.has("nvmem")) {
      if (cores > 0 || node.has("mem") || node.has("mem-type")) {
        throw SpecChecks.invalid(
            "nvmem",
            node.get("nvmem").toString(),
            "only for memory-only groups without mem or mem-type (nvmem is mem with mem-type pmem)");
      }
      mem = size("nvmem");
      memType = MemoryType.PMEM;
    }
    return new Group(
        mem,
        cores,
        cores == 0 ? 1 : optional("threads", defaultThreads, 1),
        optional("nodes", 1, 1),
        optional("dies", 1, 1),
        optional("packages", 1, 1),
        nodeDist(),
        optional("cpus-present", 0, 0),
        memType,
        coreType(),
        cpufreq(),
        optional("l3-cores", 0, 1),
        optional("l2-cores", 0, 1));
  }

  /**
   * {@code value} as an integer of at least {@code min}; numbers and digit strings are accepted.
   */
  static int integer(String key, JsonNode value, int min) {
    int result;
    if (value.isIntegralNumber() && value.canConvertToInt()) {
      result = value.intValue();
    } else if (value.isTextual() && value.asText().matches("-?[0-9]{1,9}")) {
      result = Integer.parseInt(value.asText());
    } else {
      throw SpecChecks.invalid(key, value.toString(), "expected an integer >= " + min);
    }
    if (result < min) {
      throw SpecChecks.invalid(key, value.toString(), "expected an integer >= " + min);
    }
    return result;
  }

  private int optional(String key, int fallback, int min) {
    JsonNode value = node.get(key);
    return value == null ? fallback : integer(key, value, min);
  }

  private long size(String key) {
    JsonNode value = node.get(key);
    if (value.isIntegralNumber() && value.canConvertToLong() && value.longValue() >= 0) {
      return value.longValue();
    }
    try {
      if (!value.isTextual()) {
        throw new IllegalArgumentException("expected a size such as 2G, 512M or 0");
      }
      return MemorySize.parse(value.asText());
    } catch (IllegalArgumentException e) {
      throw SpecChecks.invalid(
          key, value.toString(), Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  private @Nullable MemoryType memType() {
    JsonNode value = node.get("mem-type");
    if (value == null) {
      return null;
    }
    return switch (value.asText()) {
      case "dram", "cxl" -> MemoryType.DRAM;
      case "pmem" -> MemoryType.PMEM;
      case "hbm" -> MemoryType.HBM;
      default ->
          throw SpecChecks.invalid(
              "mem-type", value.toString(), "expected dram, cxl (the same: far DRAM), pmem or hbm");
    };
  }

  private CoreType coreType() {
    JsonNode value = node.get("core-type");
    if (value == null) {
      return CoreType.UNKNOWN;
    }
    return switch (value.asText()) {
      case "performance" -> CoreType.PERFORMANCE;
      case "efficient" -> CoreType.EFFICIENT;
      default ->
          throw SpecChecks.invalid(
              "core-type", value.toString(), "expected performance or efficient");
    };
  }

  private Map<Integer, Integer> nodeDist() {
    JsonNode value = node.get("node-dist");
    if (value == null) {
      return Map.of();
    }
    String why = "expected node ids and distances such as {\"2\": 17}";
    if (!value.isObject()) {
      throw SpecChecks.invalid("node-dist", value.toString(), why);
    }
    Map<Integer, Integer> distances = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : value.properties()) {
      if (!e.getKey().matches("[0-9]{1,6}")) {
        throw SpecChecks.invalid("node-dist", value.toString(), why);
      }
      distances.put(Integer.parseInt(e.getKey()), integer("node-dist", e.getValue(), 0));
    }
    return distances;
  }

  private CpuFrequency cpufreq() {
    JsonNode value = node.get("cpufreq");
    if (value == null) {
      return CpuFrequency.UNKNOWN;
    }
    String why =
        "expected {\"min\": kHz, \"max\": kHz, \"base\": kHz, \"epp\": performance, "
            + "balance_performance, balance_power or power}";
    if (!value.isObject()) {
      throw SpecChecks.invalid("cpufreq", value.toString(), why);
    }
    value
        .fieldNames()
        .forEachRemaining(
            name -> {
              if (!CPUFREQ_KEYS.contains(name)) {
                throw SpecChecks.invalid("cpufreq", value.toString(), why);
              }
            });
    String epp = value.path("epp").asText("");
    if (!epp.isEmpty() && !EPPS.contains(epp)) {
      throw SpecChecks.invalid("cpufreq", value.toString(), why);
    }
    return new CpuFrequency(khz(value, "min"), khz(value, "max"), khz(value, "base"), epp);
  }

  private static long khz(JsonNode cpufreq, String key) {
    JsonNode value = cpufreq.get(key);
    return value == null ? 0 : integer("cpufreq." + key, value, 0);
  }
}
