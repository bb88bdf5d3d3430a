package io.criresmgr.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Applies RFC 6902 {@code add} and {@code replace} operations on object members, as the API server
 * does with the webhook's patch; enough to check what the patch does to a pod.
 */
public final class JsonPatchApplier {
  private JsonPatchApplier() {}

  /** A copy of {@code document} with {@code patch} (a JSON array of operations) applied. */
  public static JsonNode apply(JsonNode document, JsonNode patch) {
    JsonNode result = document.deepCopy();
    for (JsonNode op : patch) {
      String[] tokens = op.get("path").asText().substring(1).split("/", -1);
      ObjectNode parent = (ObjectNode) result;
      for (int i = 0; i < tokens.length - 1; i++) {
        parent = (ObjectNode) parent.get(unescape(tokens[i]));
      }
      String member = unescape(tokens[tokens.length - 1]);
      switch (op.get("op").asText()) {
        case "add" -> parent.set(member, op.get("value"));
        case "replace" -> {
          if (!parent.has(member)) {
            throw new IllegalStateException("replace of a missing member " + op);
          }
          parent.set(member, op.get("value"));
        }
        default -> throw new IllegalArgumentException("unsupported op " + op);
      }
    }
    return result;
  }

  private static String unescape(String token) {
    return token.replace("~1", "/").replace("~0", "~");
  }
}
