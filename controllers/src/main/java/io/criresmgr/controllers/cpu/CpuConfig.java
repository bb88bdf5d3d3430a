package io.criresmgr.controllers.cpu;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.StrictMapping;
import io.criresmgr.controllers.ControllerException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code cpu} configuration section (cri-resmgr {@code control/cpu}).
 *
 * <pre>
 * cpu:
 *   classes:
 *     turbo: {minFreq: 3000000, maxFreq: 3600000, uncoreMinFreq: 2000000, uncoreMaxFreq: 2400000}
 *     idle:  {minFreq: 800000, maxFreq: 800000}
 * </pre>
 *
 * @param classes the classes by name, sorted
 */
public record CpuConfig(SortedMap<String, CpuClass> classes) {
  /** The section name in the configuration file. */
  public static final String SECTION = "cpu";

  /** No classes. */
  public static final CpuConfig EMPTY = new CpuConfig(new TreeMap<>());

  private static final List<String> SECTION_KEYS = List.of("classes");
  private static final List<String> CLASS_KEYS =
      List.of(
          "minFreq", "maxFreq", "energyPerformancePreference", "uncoreMinFreq", "uncoreMaxFreq");
  private static final String INTEGER =
      "expected a non-negative integer up to " + CpuClass.MAX_VALUE;

  /** Copies the map; each class must be filed under its own name. */
  public CpuConfig {
    classes = Collections.unmodifiableSortedMap(new TreeMap<>(classes));
    classes.forEach(
        (name, c) -> {
          if (!name.equals(c.name())) {
            throw new IllegalArgumentException("class " + c.name() + " filed as " + name);
          }
        });
  }

  /** The class called {@code name} (exact, case-sensitive match). */
  public Optional<CpuClass> find(String name) {
    return Optional.ofNullable(classes.get(name));
  }

  /** Whether some class sets a cpufreq limit. */
  public boolean setsFrequency() {
    return classes.values().stream().anyMatch(CpuClass::setsFrequency);
  }

  /** Whether some class sets an uncore limit. */
  public boolean setsUncore() {
    return classes.values().stream().anyMatch(CpuClass::setsUncore);
  }

  /** Parses the section at its usual place, {@code cpu}; see {@link #parse(String, JsonNode)}. */
  public static CpuConfig parse(JsonNode section) {
    return parse(SECTION, section);
  }

  /**
   * Parses the section found at {@code path} (used in error messages). A missing or null section is
   * {@link #EMPTY}. Keys match exactly or case-insensitively, class names exactly; unknown keys,
   * wrong types, values that are not integers from 0 to {@link CpuClass#MAX_VALUE} and a minimum
   * above its maximum are errors naming the path, the value and what is allowed, e.g. {@code
   * cpu.classes.turbo: minFreq 3600000 is above maxFreq 2400000: ...}.
   *
   * @throws ControllerException if the section is invalid
   */
  public static CpuConfig parse(String path, JsonNode section) {
    StrictMapping reader = StrictMapping.of(path, section, SECTION_KEYS, ControllerException::new);
    Optional<JsonNode> classes = reader.field("classes");
    if (classes.isEmpty()) {
      return EMPTY;
    }
    if (!classes.get().isObject()) {
      throw reader.invalid(
          "classes", classes.get(), "expected a mapping of class names to their limits");
    }
    TreeMap<String, CpuClass> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : classes.get().properties()) {
      if (e.getKey().isEmpty()) {
        throw new ControllerException(
            reader.path("classes") + ": empty class name, a class needs a name");
      }
      out.put(e.getKey(), parseClass(reader.path("classes") + "." + e.getKey(), e));
    }
    return new CpuConfig(out);
  }

  private static CpuClass parseClass(String at, Map.Entry<String, JsonNode> entry) {
    StrictMapping reader =
        StrictMapping.of(at, entry.getValue(), CLASS_KEYS, ControllerException::new);
    long[] v = new long[CLASS_KEYS.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = limit(reader, CLASS_KEYS.get(i));
    }
    checkOrder(at, "minFreq", v[0], "maxFreq", v[1]);
    checkOrder(at, "uncoreMinFreq", v[3], "uncoreMaxFreq", v[4]);
    return new CpuClass(entry.getKey(), v[0], v[1], v[2], v[3], v[4]);
  }

  private static long limit(StrictMapping reader, String key) {
    Optional<JsonNode> value = reader.field(key);
    if (value.isEmpty()) {
      return 0;
    }
    JsonNode v = value.get();
    if (!v.isIntegralNumber()
        || !v.canConvertToLong()
        || v.longValue() < 0
        || v.longValue() > CpuClass.MAX_VALUE) {
      throw reader.invalid(
          key, v, key.endsWith("Freq") ? INTEGER + " (kHz, 0 leaves it alone)" : INTEGER);
    }
    return v.longValue();
  }

  private static void checkOrder(String at, String minKey, long min, String maxKey, long max) {
    if (min != 0 && max != 0 && min > max) {
      throw new ControllerException(
          at
              + ": "
              + minKey
              + " "
              + min
              + " is above "
              + maxKey
              + " "
              + max
              + ": the minimum must not exceed the maximum (0 leaves a limit alone)");
    }
  }
}
