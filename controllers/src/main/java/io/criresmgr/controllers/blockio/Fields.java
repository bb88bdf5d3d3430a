package io.criresmgr.controllers.blockio;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.StrictMapping;
import java.util.List;
import java.util.Map;

/**
 * A mapping's fields read with the daemon's loader rules: keys match exactly or, failing that,
 * case-insensitively; unknown and duplicate keys are errors; a {@code null} value counts as not
 * given.
 */
final class Fields {
  private Fields() {}

  /** The fields of {@code node} (missing or null: none) by canonical key. */
  static Map<String, JsonNode> of(String path, JsonNode node, List<String> keys) {
    if (!node.isMissingNode() && !node.isNull() && !node.isObject()) {
      throw invalid(path, node, "expected a mapping with keys " + String.join(", ", keys));
    }
    return StrictMapping.of(path, node, keys, BlockIoException::new).fields();
  }

  /** {@code <path>: invalid value <value as JSON>: <expected>}. */
  static BlockIoException invalid(String path, JsonNode value, String expected) {
    return new BlockIoException(StrictMapping.invalidMessage(path, value, expected));
  }
}
