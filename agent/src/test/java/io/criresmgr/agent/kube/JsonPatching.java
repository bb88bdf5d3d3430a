package io.criresmgr.agent.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RFC 6902 (add, remove, replace, test) and RFC 7386 merge patches on Gson trees, as the fake API
 * server applies them. An unsupported or failing operation throws {@link IllegalArgumentException}.
 */
final class JsonPatching {
  private JsonPatching() {}

  /** Applies the merge patch {@code patch} to {@code target} in place. */
  static void merge(JsonObject target, JsonObject patch) {
    for (Map.Entry<String, JsonElement> e : patch.entrySet()) {
      JsonElement value = e.getValue();
      JsonElement existing = target.get(e.getKey());
      if (value.isJsonNull()) {
        target.remove(e.getKey());
      } else if (value.isJsonObject() && existing != null && existing.isJsonObject()) {
        merge(existing.getAsJsonObject(), value.getAsJsonObject());
      } else if (value.isJsonObject()) {
        JsonObject created = new JsonObject();
        merge(created, value.getAsJsonObject());
        target.add(e.getKey(), created);
      } else {
        target.add(e.getKey(), value.deepCopy());
      }
    }
  }

  /** Applies the JSON patch {@code ops} to {@code target} in place. */
  static void apply(JsonObject target, JsonArray ops) {
    for (JsonElement element : ops) {
      JsonObject op = element.getAsJsonObject();
      List<String> path = pointer(op.get("path").getAsString());
      JsonElement parent = walk(target, path.subList(0, path.size() - 1));
      String last = path.get(path.size() - 1);
      switch (op.get("op").getAsString()) {
        case "add" -> add(parent, last, op.get("value").deepCopy());
        case "replace" -> {
          remove(parent, last);
          add(parent, last, op.get("value").deepCopy());
        }
        case "remove" -> remove(parent, last);
        case "test" -> {
          if (!op.get("value").equals(child(parent, last))) {
            throw new IllegalArgumentException("test failed at " + op.get("path"));
          }
        }
        default -> throw new IllegalArgumentException("unsupported op " + op.get("op"));
      }
    }
  }

  private static List<String> pointer(String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("bad pointer " + path);
    }
    List<String> tokens = new ArrayList<>();
    for (String token : path.substring(1).split("/", -1)) {
      tokens.add(token.replace("~1", "/").replace("~0", "~"));
    }
    return tokens;
  }

  private static JsonElement walk(JsonElement from, List<String> tokens) {
    JsonElement at = from;
    for (String token : tokens) {
      at = child(at, token);
    }
    return at;
  }

  private static JsonElement child(JsonElement parent, String token) {
    JsonElement child =
        parent.isJsonArray()
            ? parent.getAsJsonArray().get(Integer.parseInt(token))
            : parent.getAsJsonObject().get(token);
    if (child == null) {
      throw new IllegalArgumentException("no " + token + " in " + parent);
    }
    return child;
  }

  private static void add(JsonElement parent, String token, JsonElement value) {
    if (parent.isJsonArray()) {
      JsonArray array = parent.getAsJsonArray();
      if (token.equals("-")) {
        array.add(value);
      } else {
        JsonArray copy = new JsonArray();
        int index = Integer.parseInt(token);
        for (int i = 0; i <= array.size(); i++) {
          if (i == index) {
            copy.add(value);
          }
          if (i < array.size()) {
            copy.add(array.get(i));
          }
        }
        while (array.size() > 0) {
          array.remove(0);
        }
        array.addAll(copy);
      }
    } else {
      parent.getAsJsonObject().add(token, value);
    }
  }

  private static void remove(JsonElement parent, String token) {
    child(parent, token);
    if (parent.isJsonArray()) {
      parent.getAsJsonArray().remove(Integer.parseInt(token));
    } else {
      parent.getAsJsonObject().remove(token);
    }
  }
}
