package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/** Checks on JSON fields with error messages naming the field. */
final class Fields {
  private Fields() {}

  /** True for a missing field or an explicit JSON {@code null}. */
  static boolean isAbsent(@Nullable JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode();
  }

  static void requireObject(@Nullable JsonNode node, String what) {
    if (node == null || isAbsent(node)) {
      throw new IllegalArgumentException(what + " is missing");
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          what + " must be a JSON object, not " + node.getNodeType());
    }
  }

  static String requireText(@Nullable JsonNode node, String what) {
    if (node == null || isAbsent(node)) {
      throw new IllegalArgumentException(what + " is missing");
    }
    if (!node.isTextual() || node.asText().isEmpty()) {
      throw new IllegalArgumentException(what + " must be a non-empty string, not " + node);
    }
    return node.asText();
  }

  /** The text of an optional string field; empty when absent or not a string. */
  static String text(JsonNode parent, String field) {
    JsonNode node = parent.get(field);
    return node != null && node.isTextual() ? node.asText() : "";
  }
}
