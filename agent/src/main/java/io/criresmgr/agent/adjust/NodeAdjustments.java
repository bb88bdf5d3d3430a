package io.criresmgr.agent.adjust;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.criresmgr.adjustment.AdjustmentSpec;
import io.criresmgr.adjustment.ContainerExpression;
import io.criresmgr.adjustment.Quantity;
import io.criresmgr.adjustment.ScopeEntry;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The adjustments in scope for one node, each with its scope cut down to the entries that match the
 * node: what the agent sends to the node's daemon with {@code SetAdjustment}.
 *
 * @param nodeName the node
 * @param specs adjustment name to its spec for the node; empty when none applies
 */
public record NodeAdjustments(String nodeName, Map<String, AdjustmentSpec> specs) {
  private static final Gson GSON = new Gson();

  /** Copies {@code specs}. */
  public NodeAdjustments {
    Objects.requireNonNull(nodeName, "nodeName");
    specs = Map.copyOf(specs);
  }

  /** Of {@code adjustments}, those in scope for {@code nodeName}, with their scope filtered. */
  public static NodeAdjustments of(String nodeName, Collection<Adjustment> adjustments) {
    return new NodeAdjustments(
        nodeName,
        adjustments.stream()
            .filter(a -> a.spec().isInScope(nodeName))
            .collect(Collectors.toMap(Adjustment::name, a -> a.spec().forNode(nodeName))));
  }

  /** The names of the adjustments in scope. */
  public Set<String> names() {
    return specs.keySet();
  }

  /**
   * {@code SetAdjustmentRequest.adjustment}: a JSON object of name to spec (in the CRD's field
   * names, names sorted, quantities as written but as strings, empty parts left out); {@code {}}
   * when none applies.
   */
  public String json() {
    JsonObject object = new JsonObject();
    new TreeMap<>(specs).forEach((name, spec) -> object.add(name, json(spec)));
    return GSON.toJson(object);
  }

  /** One spec in the CRD's JSON form. */
  static JsonObject json(AdjustmentSpec spec) {
    JsonObject object = new JsonObject();
    JsonArray scope = new JsonArray();
    spec.scope().forEach(s -> scope.add(json(s)));
    object.add("scope", scope);
    JsonObject resources = new JsonObject();
    addMap(resources, "requests", spec.requests());
    addMap(resources, "limits", spec.limits());
    if (!resources.isEmpty()) {
      object.add("resources", resources);
    }
    JsonObject classes = new JsonObject();
    spec.rdtClass().ifPresent(c -> classes.addProperty("rdt", c));
    spec.blockioClass().ifPresent(c -> classes.addProperty("blockio", c));
    if (!classes.isEmpty()) {
      object.add("classes", classes);
    }
    spec.toptierLimit().ifPresent(l -> object.addProperty("toptierLimit", l.text()));
    return object;
  }

  private static JsonObject json(ScopeEntry scope) {
    JsonObject object = new JsonObject();
    object.add("nodes", strings(scope.nodes()));
    JsonArray containers = new JsonArray();
    for (ContainerExpression e : scope.containers()) {
      JsonObject expression = new JsonObject();
      expression.addProperty("key", e.key());
      expression.addProperty("operator", e.operator().label());
      expression.add("values", strings(e.values()));
      containers.add(expression);
    }
    object.add("containers", containers);
    return object;
  }

  private static JsonArray strings(Collection<String> values) {
    JsonArray array = new JsonArray();
    values.forEach(array::add);
    return array;
  }

  private static void addMap(JsonObject parent, String field, Map<String, Quantity> map) {
    if (!map.isEmpty()) {
      JsonObject object = new JsonObject();
      new TreeMap<>(map).forEach((resource, q) -> object.addProperty(resource, q.text()));
      parent.add(field, object);
    }
  }
}
