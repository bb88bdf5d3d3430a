package io.criresmgr.controllers.memoryqos;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.controllers.ControllerException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one mapping of the configuration strictly, with the daemon's rules: keys match exactly or,
 * failing that, case-insensitively (the original plugin decoded with Go's {@code encoding/json},
 * which does the same); unknown and duplicate keys are errors; a {@code null} value counts as not
 * given. Errors are {@link ControllerException}s starting with the full path of the key.
 */
final class SectionReader {
  private final String path;
  private final Map<String, JsonNode> fields = new LinkedHashMap<>();

  private SectionReader(String path) {
    this.path = path;
  }

  /**
   * A reader for the mapping {@code node} (missing or null: empty) at {@code path}, accepting the
   * keys {@code keys}.
   */
  static SectionReader of(String path, JsonNode node, List<String> keys) {
    SectionReader reader = new SectionReader(path);
    if (node.isMissingNode() || node.isNull()) {
      return reader;
    }
    if (!node.isObject()) {
      throw invalid(path, node, "expected a mapping");
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      reader.accept(e.getKey(), e.getValue(), keys);
    }
    return reader;
  }

  private void accept(String key, JsonNode value, List<String> keys) {
    String name =
        keys.contains(key)
            ? key
            : keys.stream().filter(k -> k.equalsIgnoreCase(key)).findFirst().orElse(null);
    if (name == null) {
      throw new ControllerException(
          path(key) + ": unknown key, expected one of " + String.join(", ", keys));
    }
    if (fields.containsKey(name)) {
      throw new ControllerException(
          path(key) + ": duplicate key (" + name + " is given twice, keys are case-insensitive)");
    }
    if (!value.isNull()) {
      fields.put(name, value);
    }
  }

  /** The full path of {@code key}. */
  String path(String key) {
    return path + "." + key;
  }

  /** The value of {@code key}, if given. */
  Optional<JsonNode> field(String key) {
    return Optional.ofNullable(fields.get(key));
  }

  /** The items of the list {@code key} (empty if not given). */
  List<JsonNode> list(String key) {
    JsonNode value = fields.get(key);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw invalid(path(key), value, "expected a list");
    }
    List<JsonNode> items = new ArrayList<>();
    value.forEach(items::add);
    return items;
  }

  /** An error {@code <path>: invalid value <value as JSON>: <expected>}. */
  static ControllerException invalid(String path, JsonNode value, String expected) {
    return new ControllerException(path + ": invalid value " + value + ": " + expected);
  }
}
