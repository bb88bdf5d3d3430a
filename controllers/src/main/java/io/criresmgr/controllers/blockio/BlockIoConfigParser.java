package io.criresmgr.controllers.blockio;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Quantities;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Strict reader of the {@code blockio} section; see {@link BlockIoConfig#parse}. */
final class BlockIoConfigParser {
  private static final String ROOT = "blockio";
  private static final String QUANTITY_FORMS =
      "a number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E (e.g. 100, 50M,"
          + " 10Mi, 5k)";
  private static final List<String> SECTION_KEYS = List.of("Classes", "NriClasses");
  private static final List<String> ENTRY_KEYS =
      List.of(
          "Devices",
          "Weight",
          "ThrottleReadBps",
          "ThrottleWriteBps",
          "ThrottleReadIOPS",
          "ThrottleWriteIOPS");

  private BlockIoConfigParser() {}

  static BlockIoConfig parse(JsonNode section) {
    Map<String, JsonNode> fields = Fields.of(ROOT, section, SECTION_KEYS);
    JsonNode classes = fields.get("Classes");
    Map<String, List<DeviceParameters>> result = new LinkedHashMap<>();
    if (classes != null) {
      String path = ROOT + ".Classes";
      if (!classes.isObject()) {
        throw Fields.invalid(
            path, classes, "expected a mapping of class name to a list of entries");
      }
      for (Map.Entry<String, JsonNode> e : classes.properties()) {
        if (e.getKey().isEmpty()) {
          throw new BlockIoException(path + ": empty class name");
        }
        result.put(e.getKey(), entries(path + "." + e.getKey(), e.getValue()));
      }
    }
    JsonNode nri = fields.get("NriClasses");
    return new BlockIoConfig(
        result, nri == null ? Set.of() : nriClasses(ROOT + ".NriClasses", nri, result.keySet()));
  }

  /**
   * The classes listed under {@code NriClasses}: each must be one of {@code Classes}, since only a
   * class cri-resmgr resolves the same way as the runtime may be sent through NRI.
   */
  private static Set<String> nriClasses(String path, JsonNode value, Set<String> classes) {
    if (!value.isArray()) {
      throw Fields.invalid(path, value, "expected a list of class names of blockio.Classes");
    }
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (!item.isTextual() || !classes.contains(item.textValue())) {
        throw Fields.invalid(
            path + "[" + i + "]",
            item,
            "expected one of the classes of blockio.Classes ("
                + (classes.isEmpty() ? "none configured" : String.join(", ", classes))
                + ")");
      }
      names.add(item.textValue());
    }
    return names;
  }

  private static List<DeviceParameters> entries(String path, JsonNode value) {
    if (value.isNull()) {
      return List.of();
    }
    if (!value.isArray()) {
      throw Fields.invalid(path, value, "expected a list of entries");
    }
    List<DeviceParameters> entries = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      entries.add(entry(path + "[" + i + "]", value.get(i)));
    }
    return entries;
  }

  private static DeviceParameters entry(String path, JsonNode value) {
    Map<String, JsonNode> f = Fields.of(path, value, ENTRY_KEYS);
    List<String> devices = devices(path + ".Devices", f.get("Devices"));
    OptionalLong weight = weight(path + ".Weight", f.get("Weight"));
    List<OptionalLong> rates = new ArrayList<>();
    for (String key : ENTRY_KEYS.subList(2, ENTRY_KEYS.size())) {
      rates.add(rate(path + "." + key, f.get(key)));
    }
    if (devices.isEmpty() && rates.stream().anyMatch(OptionalLong::isPresent)) {
      throw new BlockIoException(
          path
              + ": throttling needs Devices: an entry without Devices may only set the class's"
              + " default Weight");
    }
    return new DeviceParameters(
        devices, weight, rates.get(0), rates.get(1), rates.get(2), rates.get(3));
  }

  private static List<String> devices(String path, @Nullable JsonNode value) {
    if (value == null) {
      return List.of();
    }
    if (!value.isArray() || value.isEmpty()) {
      throw Fields.invalid(path, value, "expected a non-empty list of device paths or globs");
    }
    List<String> devices = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      devices.add(device(path + "[" + i + "]", value.get(i)));
    }
    return devices;
  }

  private static String device(String path, JsonNode value) {
    String glob = value.isTextual() ? value.textValue() : "";
    if (!glob.startsWith("/")) {
      throw Fields.invalid(path, value, "expected an absolute device path or glob, e.g. /dev/sd*");
    }
    try {
      DeviceGlob.compile(glob);
    } catch (IllegalArgumentException e) {
      throw Fields.invalid(path, value, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
    return glob;
  }

  private static OptionalLong weight(String path, @Nullable JsonNode value) {
    OptionalLong w = quantity(path, value, "expected a weight 10..1000");
    if (value != null
        && w.isPresent()
        && (w.getAsLong() < DeviceParameters.MIN_WEIGHT
            || w.getAsLong() > DeviceParameters.MAX_WEIGHT)) {
      throw Fields.invalid(path, value, "expected a weight 10..1000");
    }
    return w;
  }

  private static OptionalLong rate(String path, @Nullable JsonNode value) {
    OptionalLong r = quantity(path, value, "expected " + QUANTITY_FORMS + ", at least 0");
    if (value != null && r.isPresent() && r.getAsLong() < 0) {
      throw Fields.invalid(path, value, "expected " + QUANTITY_FORMS + ", at least 0");
    }
    return r;
  }

  private static OptionalLong quantity(String path, @Nullable JsonNode value, String expected) {
    if (value == null) {
      return OptionalLong.empty();
    }
    String text = value.isTextual() || value.isNumber() ? value.asText() : "";
    if (text.isEmpty() && value.isTextual()) {
      return OptionalLong.empty(); // "" means unset, as in cri-resmgr
    }
    OptionalLong parsed = Quantities.parseWhole(text);
    if (parsed.isEmpty()) {
      throw Fields.invalid(path, value, expected);
    }
    return parsed;
  }
}
