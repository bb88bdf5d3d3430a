package io.criresmgr.agent.adjust;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Reads an {@code Adjustment} object (JSON, as the API server serves it) into an {@link
 * Adjustment}, checking the shape the agent relies on; the daemon checks what the values mean.
 */
public final class AdjustmentParser {
  /** The resources a spec may adjust. */
  static final Set<String> RESOURCES = Set.of("cpu", "memory");

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
   * Parses {@code object}.
   *
   * @throws IllegalArgumentException naming the field with the wrong shape
   */
  public static Adjustment parse(JsonObject object) {
    String name = name(object);
    if (name.isEmpty()) {
      throw JsonFields.bad("metadata.name", "missing");
    }
    AdjustmentSpec spec = spec(JsonFields.object(object, "spec", "spec"));
    JsonObject status = JsonFields.object(object, "status", "status");
    return new Adjustment(
        name, spec, nodeErrors(JsonFields.object(status, "nodes", "status.nodes")));
  }

  /**
   * Whether the scope of {@code object}, which may be invalid elsewhere, covers {@code nodeName};
   * empty if the scope itself cannot be read.
   */
  static Optional<Boolean> scopeCovers(JsonObject object, String nodeName) {
    try {
      JsonObject spec = JsonFields.object(object, "spec", "spec");
      if (!spec.has("scope")) {
        return Optional.empty();
      }
      List<AdjustmentScope> scope = scope(JsonFields.array(spec, "scope", "spec.scope"));
      return Optional.of(scope.stream().anyMatch(s -> s.matchesNode(nodeName)));
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

  /** Parses an adjustment's {@code spec}. */
  public static AdjustmentSpec spec(JsonObject spec) {
    if (!spec.has("scope")) {
      throw JsonFields.bad("spec.scope", "missing");
    }
    JsonObject resources = JsonFields.object(spec, "resources", "spec.resources");
    JsonObject classes = JsonFields.object(spec, "classes", "spec.classes");
    return new AdjustmentSpec(
        scope(JsonFields.array(spec, "scope", "spec.scope")),
        quantities(resources, "requests"),
        quantities(resources, "limits"),
        JsonFields.string(classes, "rdt", "spec.classes.rdt"),
        JsonFields.string(classes, "blockio", "spec.classes.blockio"),
        JsonFields.quantity(spec, "toptierLimit", "spec.toptierLimit"));
  }

  private static List<AdjustmentScope> scope(JsonArray entries) {
    List<AdjustmentScope> scope = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      String path = "spec.scope[" + i + "]";
      JsonObject entry = asObject(entries.get(i), path);
      List<String> nodes = JsonFields.strings(entry, "nodes", path + ".nodes");
      List<ContainerExpression> containers = new ArrayList<>();
      JsonArray expressions = JsonFields.array(entry, "containers", path + ".containers");
      for (int j = 0; j < expressions.size(); j++) {
        containers.add(expression(expressions.get(j), path + ".containers[" + j + "]"));
      }
      scope.add(within(path, () -> new AdjustmentScope(nodes, containers)));
    }
    return scope;
  }

  private static ContainerExpression expression(JsonElement element, String path) {
    JsonObject object = asObject(element, path);
    String key = JsonFields.string(object, "key", path + ".key").orElse("");
    String operator = JsonFields.string(object, "operator", path + ".operator").orElse("");
    List<String> values = JsonFields.strings(object, "values", path + ".values");
    return within(path, () -> new ContainerExpression(key, operator, values));
  }

  private static Map<String, String> quantities(JsonObject resources, String field) {
    String path = "spec.resources." + field;
    JsonObject object = JsonFields.object(resources, field, path);
    Map<String, String> quantities = new LinkedHashMap<>();
    for (String resource : object.keySet()) {
      if (!RESOURCES.contains(resource)) {
        throw JsonFields.bad(path + "." + resource, "only cpu and memory can be adjusted");
      }
      JsonFields.quantity(object, resource, path + "." + resource)
          .ifPresent(q -> quantities.put(resource, q));
    }
    return quantities;
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

  private static JsonObject asObject(JsonElement element, String path) {
    if (!element.isJsonObject()) {
      throw JsonFields.bad(path, "expected an object");
    }
    return element.getAsJsonObject();
  }

  private static <T> T within(String path, Supplier<T> create) {
    try {
      return create.get();
    } catch (IllegalArgumentException e) {
      throw JsonFields.bad(path, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }
}
