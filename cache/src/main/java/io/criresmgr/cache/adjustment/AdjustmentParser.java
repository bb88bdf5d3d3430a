package io.criresmgr.cache.adjustment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Quantities;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.files.ParseLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@code SetAdjustment} JSON (Adjustment name to spec, as in the custom resource) and
 * checks every spec: unknown fields, only cpu and memory resources, quantities, a limit not below
 * its request (a missing request is the limit), operators and their values. Every problem is
 * reported, each naming the Adjustment, the field and what is allowed.
 */
public final class AdjustmentParser {
  // Trailing content means the payload is not the one JSON value it should be.
  private static final JsonMapper JSON =
      JsonMapper.builder(ParseLimits.ADJUSTMENTS.jsonFactory())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private static final Set<String> SPEC_FIELDS =
      Set.of("scope", "resources", "classes", "toptierLimit");
  private static final Set<String> SCOPE_FIELDS = Set.of("nodes", "containers");
  private static final Set<String> EXPRESSION_FIELDS = Set.of("key", "operator", "values");
  private static final Set<String> RESOURCE_FIELDS = Set.of("requests", "limits");
  private static final Set<String> RESOURCE_NAMES = Set.of("cpu", "memory");
  private static final Set<String> CLASS_FIELDS = Set.of("rdt", "blockio");

  private final List<String> errors = new ArrayList<>();
  private String where = "";

  private AdjustmentParser() {}

  /**
   * The adjustments in {@code json} for node {@code nodeName}.
   *
   * @throws AdjustmentException if it is no JSON object ({@link AdjustmentException#undecodable})
   *     or any spec is invalid (all problems, one per line)
   */
  public static AdjustmentSet parse(String nodeName, String json) throws AdjustmentException {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new AdjustmentException("adjustments: not JSON: " + e.getOriginalMessage(), true);
    }
    if (root == null || !root.isObject()) {
      throw new AdjustmentException("adjustments: expected a JSON object of name to spec", true);
    }
    AdjustmentParser parser = new AdjustmentParser();
    Map<String, AdjustmentSpec> specs = new LinkedHashMap<>();
    root.properties().forEach(e -> parser.spec(e.getKey(), e.getValue(), specs));
    if (!parser.errors.isEmpty()) {
      throw new AdjustmentException(String.join("\n", parser.errors), false);
    }
    return new AdjustmentSet(nodeName, specs);
  }

  private void spec(String name, JsonNode spec, Map<String, AdjustmentSpec> specs) {
    where = "adjustment " + name + ": ";
    if (name.isEmpty()) {
      errors.add("adjustments: an adjustment has an empty name");
      return;
    }
    int before = errors.size();
    if (!object(spec, "spec", SPEC_FIELDS)) {
      return;
    }
    List<AdjustmentScope> scope = scope(spec.path("scope"));
    Optional<ResourceOverride> resources = resources(spec.path("resources"));
    JsonNode classes = spec.path("classes");
    String rdt = "";
    String blockio = "";
    if (!classes.isMissingNode() && object(classes, "classes", CLASS_FIELDS)) {
      rdt = text(classes.path("rdt"), "classes.rdt");
      blockio = text(classes.path("blockio"), "classes.blockio");
    }
    OptionalLong toptier = toptier(spec.path("toptierLimit"));
    if (errors.size() == before) {
      Adjustment effect = new Adjustment(name, resources, rdt, blockio, toptier);
      specs.put(name, new AdjustmentSpec(effect, scope));
    }
  }

  private List<AdjustmentScope> scope(JsonNode scope) {
    if (!scope.isArray() || scope.isEmpty()) {
      errors.add(where + "scope: required, a list of {nodes, containers} with at least one entry");
      return List.of();
    }
    List<AdjustmentScope> entries = new ArrayList<>();
    for (int i = 0; i < scope.size(); i++) {
      String field = "scope[" + i + "]";
      JsonNode entry = scope.get(i);
      if (object(entry, field, SCOPE_FIELDS)) {
        List<String> nodes =
            list(entry.path("nodes"), field + ".nodes", n -> text(n, field + ".nodes"));
        List<Expression> containers =
            list(entry.path("containers"), field + ".containers", e -> expression(e, field));
        entries.add(new AdjustmentScope(nodes, containers));
      }
    }
    return entries;
  }

  private @Nullable Expression expression(JsonNode node, String field) {
    String f = field + ".containers";
    if (!object(node, f, EXPRESSION_FIELDS)) {
      return null;
    }
    String key = text(node.path("key"), f + ".key");
    List<String> values = list(node.path("values"), f + ".values", v -> text(v, f + ".values"));
    try {
      Expression.Operator op = Expression.Operator.parse(node.path("operator").asText(""));
      return new Expression(key, op, values);
    } catch (IllegalArgumentException e) {
      errors.add(where + f + ": " + e.getMessage());
      return null;
    }
  }

  private Optional<ResourceOverride> resources(JsonNode resources) {
    if (resources.isMissingNode() || !object(resources, "resources", RESOURCE_FIELDS)) {
      return Optional.empty();
    }
    int before = errors.size();
    Map<String, Long> requests = amounts(resources.path("requests"), "resources.requests");
    Map<String, Long> limits = amounts(resources.path("limits"), "resources.limits");
    Optional<ResourceOverride.Amounts> cpu = amounts("cpu", requests, limits);
    Optional<ResourceOverride.Amounts> memory = amounts("memory", requests, limits);
    if (cpu.isEmpty() && memory.isEmpty()) {
      // Only when nothing was wrong with what it does set: a bad amount is reported already.
      if (errors.size() == before && requests.isEmpty() && limits.isEmpty()) {
        errors.add(where + "resources: sets no requests or limits of cpu or memory");
      }
      return Optional.empty();
    }
    return Optional.of(new ResourceOverride(cpu, memory));
  }

  private Optional<ResourceOverride.Amounts> amounts(
      String resource, Map<String, Long> requests, Map<String, Long> limits) {
    Long limit = limits.get(resource);
    Long request = requests.getOrDefault(resource, limit);
    if (request == null) {
      return Optional.empty();
    }
    long l = limit == null ? 0 : limit;
    // An explicit limit counts even when 0: Kubernetes, too, rejects a limit 0 below a request.
    if (limit != null && l < request) {
      errors.add(
          where
              + "resources."
              + resource
              + ": the limit "
              + describe(resource, l)
              + " is below the request "
              + describe(resource, request)
              + "; a limit must be at least the request");
      return Optional.empty();
    }
    return Optional.of(new ResourceOverride.Amounts(request, l));
  }

  private Map<String, Long> amounts(JsonNode list, String field) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (list.isMissingNode() || list.isNull() || !object(list, field, RESOURCE_NAMES)) {
      return out;
    }
    list.properties()
        .forEach(
            e -> {
              String text = e.getValue().asText("");
              try {
                long v =
                    e.getKey().equals("cpu")
                        ? Quantities.parseMilli(text)
                        : Quantities.parseBytes(text);
                out.put(e.getKey(), v);
              } catch (IllegalArgumentException ex) {
                errors.add(where + field + "." + e.getKey() + ": " + ex.getMessage());
              }
            });
    return out;
  }

  private OptionalLong toptier(JsonNode limit) {
    if (limit.isMissingNode() || limit.isNull()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Quantities.parseBytes(limit.asText("")));
    } catch (IllegalArgumentException e) {
      errors.add(where + "toptierLimit: " + e.getMessage());
      return OptionalLong.empty();
    }
  }

  private boolean object(JsonNode node, String field, Set<String> allowed) {
    if (!node.isObject()) {
      errors.add(where + field + ": expected an object, got " + node.getNodeType());
      return false;
    }
    List<String> unknown = new ArrayList<>();
    node.fieldNames()
        .forEachRemaining(
            n -> {
              if (!allowed.contains(n)) {
                unknown.add(n);
              }
            });
    if (!unknown.isEmpty()) {
      errors.add(
          where
              + field
              + ": unknown "
              + unknown
              + ", allowed: "
              + allowed.stream().sorted().toList());
      return false;
    }
    return true;
  }

  private <T> List<T> list(JsonNode node, String field, Function<JsonNode, @Nullable T> element) {
    if (node.isMissingNode() || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      errors.add(where + field + ": expected a list, got " + node.getNodeType());
      return List.of();
    }
    List<T> out = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode n = node.get(i);
      if (n.isNull()) {
        errors.add(where + field + "[" + i + "]: null is not allowed");
        continue;
      }
      T value = element.apply(n);
      if (value != null) {
        out.add(value);
      }
    }
    return out;
  }

  private String text(JsonNode node, String field) {
    if (node.isMissingNode() || node.isNull()) {
      return "";
    }
    if (!node.isTextual()) {
      errors.add(where + field + ": expected a string, got " + node);
      return "";
    }
    return node.textValue();
  }

  private static String describe(String resource, long value) {
    return resource.equals("cpu") ? value + "m" : value + " bytes";
  }
}
