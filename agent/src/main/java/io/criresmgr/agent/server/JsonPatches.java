package io.criresmgr.agent.server;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.Strictness;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.criresmgr.api.agent.v1.JsonPatch;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;

/** Turns the {@code PatchNode} operations (raw JSON values) into one RFC 6902 JSON patch. */
final class JsonPatches {
  private static final Gson GSON = new GsonBuilder().serializeNulls().create();
  private static final TypeAdapter<JsonElement> ELEMENT = GSON.getAdapter(JsonElement.class);

  private JsonPatches() {}

  /**
   * The JSON array of {@code patches}; a patch with an empty value (e.g. a remove) gets none.
   *
   * @throws IllegalArgumentException naming the patch's index and path if a value is not JSON
   */
  static String toJson(List<JsonPatch> patches) {
    JsonArray array = new JsonArray();
    for (int i = 0; i < patches.size(); i++) {
      JsonPatch p = patches.get(i);
      JsonObject op = new JsonObject();
      op.addProperty("op", p.getOp());
      op.addProperty("path", p.getPath());
      if (!p.getValue().isEmpty()) {
        op.add("value", parse(i, p));
      }
      array.add(op);
    }
    return GSON.toJson(array);
  }

  private static JsonElement parse(int index, JsonPatch patch) {
    try (JsonReader reader = new JsonReader(new StringReader(patch.getValue()))) {
      reader.setStrictness(Strictness.STRICT);
      JsonElement value = ELEMENT.read(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new IOException("text after the JSON value");
      }
      return value;
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "patch "
              + index
              + " (path "
              + patch.getPath()
              + "): value is not JSON: "
              + patch.getValue(),
          e);
    }
  }
}
