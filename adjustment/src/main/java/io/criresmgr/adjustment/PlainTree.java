package io.criresmgr.adjustment;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** How {@link AdjustmentValidator} names the values of a plain Java tree in its messages. */
final class PlainTree {
  private PlainTree() {}

  /** The text of a number: see {@link AdjustmentValidator}. */
  static String numberText(Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      // Infinity and NaN have no decimal text: their names, which no quantity matches.
      return Double.isFinite(d) ? BigDecimal.valueOf(d).toString() : String.valueOf(d);
    }
    return n.toString();
  }

  /** The JSON type of {@code node}, as Jackson names it ({@code OBJECT}, {@code STRING}, ...). */
  static String type(@Nullable Object node) {
    if (node == null) {
      return "NULL";
    }
    if (node instanceof Map) {
      return "OBJECT";
    }
    if (node instanceof List) {
      return "ARRAY";
    }
    if (node instanceof String) {
      return "STRING";
    }
    return node instanceof Number ? "NUMBER" : node instanceof Boolean ? "BOOLEAN" : "UNKNOWN";
  }

  /** {@code node} as it would be written in JSON, or its type for objects and lists. */
  static String render(Object node) {
    if (node instanceof String s) {
      return "\"" + s + "\"";
    }
    if (node instanceof Number n) {
      return numberText(n);
    }
    if (node instanceof Map) {
      return "an object";
    }
    return node instanceof List ? "a list" : node.toString();
  }
}
