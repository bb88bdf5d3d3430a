package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One RFC 6902 JSON Patch operation.
 *
 * @param op {@code add} or {@code replace}
 * @param path an RFC 6901 JSON pointer, already escaped
 * @param value the value to set
 */
public record PatchOp(String op, String path, JsonNode value) {
  /** Validates the operation and the pointer. */
  public PatchOp {
    Objects.requireNonNull(value, "value");
    if (!op.equals("add") && !op.equals("replace")) {
      throw new IllegalArgumentException("unsupported patch op " + op);
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("a JSON pointer starts with '/': " + path);
    }
  }

  /**
   * {@code token} escaped for use in a JSON pointer (RFC 6901): {@code ~} as {@code ~0}, {@code /}
   * as {@code ~1}.
   */
  public static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }
}
