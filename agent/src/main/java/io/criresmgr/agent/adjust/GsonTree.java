package io.criresmgr.agent.adjust;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A Gson tree as the plain Java tree {@code io.criresmgr.adjustment.AdjustmentValidator} reads.
 * Numbers stay Gson's numbers, which keep their text, rather than its default conversion to {@code
 * Double}: {@code 1073741824} stays {@code "1073741824"} (not {@code 1.073741824E9}), {@code 1e3}
 * stays {@code "1e3"}.
 */
final class GsonTree {
  private GsonTree() {}

  /** {@code element} as maps (insertion-ordered), lists, strings, numbers, booleans and nulls. */
  static @Nullable Object of(@Nullable JsonElement element) {
    if (element == null || element.isJsonNull()) {
      return null;
    }
    if (element instanceof JsonObject object) {
      Map<String, @Nullable Object> map = new LinkedHashMap<>();
      object.entrySet().forEach(e -> map.put(e.getKey(), of(e.getValue())));
      return map;
    }
    if (element instanceof JsonArray array) {
      List<@Nullable Object> list = new ArrayList<>();
      array.forEach(e -> list.add(of(e)));
      return list;
    }
    JsonPrimitive p = element.getAsJsonPrimitive();
    if (p.isBoolean()) {
      return p.getAsBoolean();
    }
    // A parsed number is Gson's LazilyParsedNumber, whose toString() is the number as written.
    return p.isNumber() ? p.getAsNumber() : p.getAsString();
  }
}
