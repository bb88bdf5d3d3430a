package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.cache.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A value of a scenario file with its path and line: typed accessors that throw {@link
 * ScenarioException}s reading {@code FILE:LINE: path: message}.
 */
final class ScenarioNode {
  private final String source;
  private final String path;
  private final JsonNode value;
  private final Map<String, Integer> lines;

  ScenarioNode(String source, String path, JsonNode value, Map<String, Integer> lines) {
    this.source = source;
    this.path = path;
    this.value = value;
    this.lines = lines;
  }

  /** {@code parent.key}, or {@code key} at the top. */
  static String child(String parent, String key) {
    return parent.isEmpty() ? key : parent + "." + key;
  }

  /** The file this value comes from. */
  String source() {
    return source;
  }

  /** The path of this value, e.g. {@code steps[2].create.cpu}. */
  String path() {
    return path;
  }

  /** The line of this value (of its parent if it is missing); 0 if unknown. */
  int line() {
    String p = path;
    while (true) {
      Integer line = lines.get(p);
      if (line != null || p.isEmpty()) {
        return line == null ? 0 : line;
      }
      int cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
      p = cut < 0 ? "" : p.substring(0, cut);
    }
  }

  /** The raw JSON value. */
  JsonNode json() {
    return value;
  }

  /** An error at this value: {@code FILE:LINE: path: message}. */
  ScenarioException error(String message) {
    return new ScenarioException(
        source + ":" + line() + ": " + (path.isEmpty() ? "" : path + ": ") + message);
  }

  boolean isNull() {
    return value.isNull() || value.isMissingNode();
  }

  boolean isText() {
    return value.isTextual();
  }

  boolean isMapping() {
    return value.isObject();
  }

  boolean isList() {
    return value.isArray();
  }

  /** The entries of a mapping, in file order; unknown keys are errors when {@code keys} is set. */
  Map<String, ScenarioNode> mapping(Collection<String> keys) {
    if (!value.isObject()) {
      throw error("expected a mapping, got " + describe());
    }
    Map<String, ScenarioNode> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : value.properties()) {
      ScenarioNode child = at(e.getKey());
      if (!keys.isEmpty() && !keys.contains(e.getKey())) {
        throw child.error("unknown key, expected one of " + String.join(", ", keys));
      }
      out.put(e.getKey(), child);
    }
    return out;
  }

  /** The entries of a mapping with any keys. */
  Map<String, ScenarioNode> mapping() {
    return mapping(List.of());
  }

  /** The value of {@code key} (missing if absent). */
  ScenarioNode at(String key) {
    JsonNode child = value.isObject() ? value.get(key) : null;
    return new ScenarioNode(
        source, child(path, key), child == null ? MissingNode.getInstance() : child, lines);
  }

  /** The items of a list. */
  List<ScenarioNode> list() {
    if (!value.isArray()) {
      throw error("expected a list, got " + describe());
    }
    List<ScenarioNode> out = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      out.add(new ScenarioNode(source, path + "[" + i + "]", value.get(i), lines));
    }
    return out;
  }

  /** The items of a list, or this value alone if it is not a list. */
  List<ScenarioNode> listOrOne() {
    return value.isArray() ? list() : List.of(this);
  }

  /** A scalar as text (numbers as written, e.g. {@code 1}, {@code 0.5}). */
  String text() {
    if (!value.isValueNode() || value.isNull()) {
      throw error("expected a scalar value, got " + describe());
    }
    return value.isBigDecimal() ? value.decimalValue().toPlainString() : value.asText();
  }

  /** A non-negative integer. */
  int integer() {
    if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
      throw error("expected a non-negative integer, got " + describe());
    }
    return value.intValue();
  }

  /** A boolean. */
  boolean bool() {
    if (!value.isBoolean()) {
      throw error("expected true or false, got " + describe());
    }
    return value.booleanValue();
  }

  /** A Go-style duration such as {@code 1s}, {@code 500ms} or {@code 1m30s}. */
  Duration duration() {
    try {
      return GoDuration.parse(text());
    } catch (IllegalArgumentException e) {
      throw error(String.valueOf(e.getMessage()));
    }
  }

  /** A mapping of strings to strings (scalars as text). */
  Map<String, String> stringMap() {
    Map<String, String> out = new LinkedHashMap<>();
    mapping().forEach((k, v) -> out.put(k, v.text()));
    return out;
  }

  /** {@code parse(text())}, an {@link IllegalArgumentException} becoming an error here. */
  <T> T parsed(Function<String, T> parse) {
    try {
      return parse.apply(text());
    } catch (IllegalArgumentException e) {
      throw error(String.valueOf(e.getMessage()));
    }
  }

  /** The value of {@code key} if given and not null. */
  Optional<ScenarioNode> optional(String key) {
    ScenarioNode child = at(key);
    return child.isNull() ? Optional.empty() : Optional.of(child);
  }

  /** The value of {@code key}, which must be given. */
  ScenarioNode required(String key) {
    ScenarioNode child = at(key);
    if (child.isNull()) {
      throw error(key + ": required");
    }
    return child;
  }

  /** A short description of the value for error messages. */
  String describe() {
    if (value.isMissingNode()) {
      return "nothing";
    }
    String text = value.toString();
    String kind = value.isObject() ? "mapping " : value.isArray() ? "list " : "";
    return kind + (text.length() > 60 ? text.substring(0, 57) + "..." : text);
  }
}
