package io.criresmgr.controllers.blockio;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A mapping's fields read with the daemon's loader rules: keys match exactly or, failing that,
 * case-insensitively; unknown and duplicate keys are errors; a {@code null} value counts as not
 * given.
 */
final class Fields {
  private Fields() {}

  /** The fields of {@code node} (missing or null: none) by canonical key. */
  static Map<String, JsonNode> of(String path, JsonNode node, List<String> keys) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    if (node.isMissingNode() || node.isNull()) {
      return fields;
    }
    if (!node.isObject()) {
      throw invalid(path, node, "expected a mapping with keys " + String.join(", ", keys));
    }
    Set<String> seen = new HashSet<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String key = e.getKey();
      String name =
          keys.contains(key)
              ? key
              : keys.stream().filter(k -> k.equalsIgnoreCase(key)).findFirst().orElse(null);
      if (name == null) {
        throw new BlockIoException(
            path + "." + key + ": unknown key, expected one of " + String.join(", ", keys));
      }
      if (!seen.add(name)) {
        throw new BlockIoException(
            path
                + "."
                + key
                + ": duplicate key ("
                + name
                + " is given twice, keys are"
                + " case-insensitive)");
      }
      if (!e.getValue().isNull()) {
        fields.put(name, e.getValue());
      }
    }
    return fields;
  }

  /** {@code <path>: invalid value <value as JSON>: <expected>}. */
  static BlockIoException invalid(String path, JsonNode value, String expected) {
    return new BlockIoException(path + ": invalid value " + value + ": " + expected);
  }
}
