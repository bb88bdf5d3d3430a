package io.criresmgr.agent.adjust;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Reads typed fields of a JSON object, naming the path of whatever has the wrong shape. */
final class JsonFields {
  private JsonFields() {}

  /** The object at {@code field} of {@code parent}, or an empty one if it is absent or null. */
  static JsonObject object(JsonObject parent, String field, String path) {
    JsonElement value = present(parent, field);
    if (value == null) {
      return new JsonObject();
    }
    if (!value.isJsonObject()) {
      throw bad(path, "expected an object");
    }
    return value.getAsJsonObject();
  }

  /** The array at {@code field}, or an empty one if absent. */
  static JsonArray array(JsonObject parent, String field, String path) {
    JsonElement value = present(parent, field);
    if (value == null) {
      return new JsonArray();
    }
    if (!value.isJsonArray()) {
      throw bad(path, "expected an array");
    }
    return value.getAsJsonArray();
  }

  /** The string at {@code field}, if present. */
  static Optional<String> string(JsonObject parent, String field, String path) {
    JsonElement value = present(parent, field);
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof JsonPrimitive p) || !p.isString()) {
      throw bad(path, "expected a string");
    }
    return Optional.of(p.getAsString());
  }

  /** The map of strings at {@code field}, or an empty one if absent. */
  static Map<String, String> stringMap(JsonObject parent, String field, String path) {
    Map<String, String> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> e : object(parent, field, path).entrySet()) {
      JsonElement item = e.getValue();
      if (!(item instanceof JsonPrimitive p) || !p.isString()) {
        throw bad(path + "." + e.getKey(), "expected a string");
      }
      map.put(e.getKey(), p.getAsString());
    }
    return map;
  }

  private static @Nullable JsonElement present(JsonObject parent, String field) {
    JsonElement value = parent.get(field);
    return value == null || value.isJsonNull() ? null : value;
  }

  static IllegalArgumentException bad(String path, String why) {
    return new IllegalArgumentException(path + ": " + why);
  }
}
