package io.criresmgr.agent.adjust;

import com.google.gson.JsonObject;
import io.criresmgr.adjustment.AdjustmentSpec;
import io.criresmgr.adjustment.AdjustmentValidator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Reads an {@code Adjustment} object (JSON, as the API server serves it) into an {@link
 * Adjustment}: the spec is checked by the validator the daemon uses too ({@link
 * AdjustmentValidator}), so what the agent accepts the daemon accepts.
 */
public final class AdjustmentParser {
  private AdjustmentParser() {}

  /** The object's {@code metadata.name}, or empty if it has none. */
  public static String name(JsonObject object) {
    try {
      return JsonFields.string(JsonFields.object(object, "metadata", "metadata"), "name", "name")
          .orElse("");
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** The object's {@code metadata.resourceVersion}, or null if it has none. */
  static @Nullable String resourceVersion(JsonObject object) {
    try {
      return JsonFields.string(
              JsonFields.object(object, "metadata", "metadata"),
              "resourceVersion",
              "resourceVersion")
          .orElse(null);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Parses {@code object}: its spec with the daemon's validator
   * (docs/adr/0014-one-adjustment-model.md), its name and status by their shape.
   *
   * @throws IllegalArgumentException naming the field with the wrong shape; for the spec, every
   *     problem, one line each, as the daemon words them ({@code adjustment <name>: <field>: ...})
   */
  public static Adjustment parse(JsonObject object) {
    String name = name(object);
    if (name.isEmpty()) {
      throw JsonFields.bad("metadata.name", "missing");
    }
    AdjustmentValidator.Checked checked =
        AdjustmentValidator.check(name, GsonTree.of(object.get("spec")));
    if (!checked.valid()) {
      throw new IllegalArgumentException(String.join("\n", checked.problems()));
    }
    AdjustmentSpec spec = Objects.requireNonNull(checked.specs().get(name), name);
    JsonObject status = JsonFields.object(object, "status", "status");
    return new Adjustment(
        name, spec, nodeErrors(JsonFields.object(status, "nodes", "status.nodes")));
  }

  /**
   * Whether the scope of {@code object}, which may be invalid elsewhere, covers {@code nodeName};
   * empty if the scope itself is invalid.
   */
  static Optional<Boolean> scopeCovers(JsonObject object, String nodeName) {
    try {
      JsonObject spec = JsonFields.object(object, "spec", "spec");
      Map<String, @Nullable Object> scopeOnly = new LinkedHashMap<>();
      scopeOnly.put("scope", GsonTree.of(spec.get("scope")));
      AdjustmentValidator.Checked checked = AdjustmentValidator.check(name(object), scopeOnly);
      return checked.specs().values().stream().findFirst().map(s -> s.isInScope(nodeName));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * The status entry of {@code nodeName} in {@code object}, which may be invalid elsewhere: its
   * errors, or empty if it has none or it cannot be read.
   */
  static Optional<Map<String, String>> nodeErrorsOf(JsonObject object, String nodeName) {
    try {
      JsonObject status = JsonFields.object(object, "status", "status");
      JsonObject nodes = JsonFields.object(status, "nodes", "status.nodes");
      if (!nodes.has(nodeName)) {
        return Optional.empty();
      }
      String path = "status.nodes." + nodeName;
      JsonObject entry = JsonFields.object(nodes, nodeName, path);
      return Optional.of(JsonFields.stringMap(entry, "errors", path + ".errors"));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Map<String, Map<String, String>> nodeErrors(JsonObject nodes) {
    Map<String, Map<String, String>> errors = new LinkedHashMap<>();
    for (String node : nodes.keySet()) {
      String path = "status.nodes." + node;
      JsonObject entry = JsonFields.object(nodes, node, path);
      errors.put(node, JsonFields.stringMap(entry, "errors", path + ".errors"));
    }
    return errors;
  }
}
