package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Reads one mapping of the configuration tree strictly, producing {@code FILE: path: message}
 * errors.
 *
 * <p>Keys are checked when the reader is created: sub-section keys must match exactly, field keys
 * also case-insensitively (as Go's {@code encoding/json} did for cri-resmgr). A {@code null} value
 * counts as not given.
 */
final class SectionReader {
  private final String source;
  private final String path;
  private final Map<String, JsonNode> fields = new LinkedHashMap<>();
  private final Map<String, JsonNode> sections = new LinkedHashMap<>();

  private SectionReader(String source, String path) {
    this.source = source;
    this.path = path;
  }

  /**
   * A reader for {@code node} (missing or null: empty) at {@code path} ({@code ""} for the top),
   * accepting the given field and sub-section keys.
   */
  static SectionReader of(
      String source,
      String path,
      @Nullable JsonNode node,
      List<String> fieldNames,
      List<String> sectionNames) {
    SectionReader reader = new SectionReader(source, path);
    ObjectNode object = reader.mapping(path, node);
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      reader.accept(e.getKey(), e.getValue(), fieldNames, sectionNames);
    }
    return reader;
  }

  private void accept(String key, JsonNode value, List<String> fieldNames, List<String> sections) {
    if (sections.contains(key)) {
      put(this.sections, key, key, value);
      return;
    }
    String field =
        fieldNames.contains(key)
            ? key
            : fieldNames.stream().filter(f -> f.equalsIgnoreCase(key)).findFirst().orElse(null);
    if (field == null) {
      List<String> expected = new ArrayList<>(fieldNames);
      expected.addAll(sections);
      throw error(key, "unknown key, expected one of " + String.join(", ", expected));
    }
    put(fields, field, key, value);
  }

  private void put(Map<String, JsonNode> into, String name, String key, JsonNode value) {
    if (into.containsKey(name)) {
      throw error(key, "duplicate key (" + name + " is given twice, keys are case-insensitive)");
    }
    if (!value.isNull()) {
      into.put(name, value);
    }
  }

  /** The path of {@code key} below this section. */
  String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The value of field {@code name}, if given. */
  Optional<JsonNode> field(String name) {
    return Optional.ofNullable(fields.get(name));
  }

  /** The value of sub-section {@code name}, if given. */
  Optional<JsonNode> section(String name) {
    return Optional.ofNullable(sections.get(name));
  }

  /** Every given sub-section, in file order. */
  Map<String, JsonNode> sections() {
    return sections;
  }

  /** Field {@code name} as a string, or {@code dflt}. */
  String string(String name, String dflt) {
    return field(name).map(v -> text(name, v)).orElse(dflt);
  }

  /**
   * Field {@code name} converted by {@code parse}, or {@code dflt}. The value must be a string or a
   * number (so that {@code ReportPeriod: 15} is told the duration syntax, not "expected a string").
   */
  <T> T parsed(String name, T dflt, Function<String, T> parse) {
    return field(name)
        .map(v -> convert(name, v, v.isNumber() ? v.asText() : text(name, v), parse))
        .orElse(dflt);
  }

  /** Field {@code name} as a boolean, or {@code dflt}; YAML 1.1 yes/no/on/off are accepted. */
  boolean bool(String name, boolean dflt) {
    return field(name).map(v -> bool(name, v)).orElse(dflt);
  }

  private boolean bool(String name, JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    return switch (value.isTextual() ? value.textValue().toLowerCase(Locale.ROOT) : "") {
      case "yes", "on" -> true;
      case "no", "off" -> false;
      default -> throw invalid(name, value, "expected true or false");
    };
  }

  /** Field {@code name} as a map of scalars (numbers and booleans as text), or empty. */
  Map<String, String> scalarMap(String name) {
    Map<String, String> map = new LinkedHashMap<>();
    field(name)
        .map(v -> mapping(path(name), v))
        .ifPresent(o -> o.properties().forEach(e -> map.put(e.getKey(), scalar(name, e))));
    return map;
  }

  private String scalar(String name, Map.Entry<String, JsonNode> e) {
    if (!e.getValue().isValueNode() || e.getValue().isNull()) {
      throw invalidAt(path(name) + "." + e.getKey(), e.getValue(), "expected a scalar value");
    }
    return e.getValue().asText();
  }

  /** Converts {@code text} of {@code name}, turning an IllegalArgumentException into an error. */
  <T> T convert(String name, JsonNode value, String text, Function<String, T> parse) {
    try {
      return parse.apply(text);
    } catch (IllegalArgumentException e) {
      throw invalid(name, value, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  private String text(String name, JsonNode value) {
    if (!value.isTextual()) {
      throw invalid(name, value, "expected a string");
    }
    return value.textValue();
  }

  /** {@code node} as a mapping; missing or null is an empty mapping. */
  ObjectNode mapping(String at, @Nullable JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!node.isObject()) {
      throw invalidAt(at, node, "expected a mapping");
    }
    return (ObjectNode) node;
  }

  /** An error for the bad value of key {@code name}. */
  ConfigException invalid(String name, JsonNode value, String allowed) {
    return invalidAt(path(name), value, allowed);
  }

  private ConfigException invalidAt(String at, JsonNode value, String allowed) {
    return errorAt(at, "invalid value " + value + ": " + allowed);
  }

  /** An error about key {@code name}. */
  ConfigException error(String name, String message) {
    return errorAt(path(name), message);
  }

  private ConfigException errorAt(String at, String message) {
    return new ConfigException(source + ": " + (at.isEmpty() ? "" : at + ": ") + message);
  }
}
