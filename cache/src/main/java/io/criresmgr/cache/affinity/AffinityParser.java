package io.criresmgr.cache.affinity;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.cache.files.ParseLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Parses one affinity or anti-affinity annotation value, strictly: the simple syntax {@code c3:
 * [c1, c2]} (symmetric: c1 and c2 also get an affinity to c3) or the full syntax {@code c3:
 * [{scope: expr, match: expr, weight: w}]} with expressions {@code {key, operator, values}}.
 */
final class AffinityParser {
  private static final ObjectMapper YAML =
      YAMLMapper.builder(ParseLimits.ANNOTATION.yamlFactory())
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();
  private static final String SYNTAX =
      "expected a mapping of container names to lists of container names"
          + " or to lists of {scope, match, weight}";

  private final String annotation;
  private final Expression podScope;
  private final int sign;

  /**
   * A parser for annotation {@code annotation} of a pod whose scope expression is {@code podScope};
   * {@code sign} is 1 for affinities, -1 for anti-affinities.
   */
  AffinityParser(String annotation, Expression podScope, int sign) {
    this.annotation = annotation;
    this.podScope = podScope;
    this.sign = sign;
  }

  /**
   * Each container's affinities.
   *
   * @throws IllegalArgumentException naming the annotation, the place and the problem
   */
  Map<String, List<Affinity>> parse(String value) {
    JsonNode root = read(value);
    if (root.isMissingNode() || root.isNull()) {
      return Map.of();
    }
    if (!root.isObject()) {
      throw error("", "invalid value " + root + ": " + SYNTAX);
    }
    boolean simple = true;
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      if (!e.getValue().isArray()) {
        throw error(e.getKey(), "invalid value " + e.getValue() + ": " + SYNTAX);
      }
      for (JsonNode item : e.getValue()) {
        simple &= item.isValueNode() && !item.isNull();
      }
    }
    return simple ? simple(root) : full(root);
  }

  private JsonNode read(String value) {
    try {
      return ParseLimits.ANNOTATION.readYaml(YAML, value);
    } catch (JsonProcessingException e) {
      throw error("", "not YAML: " + e.getOriginalMessage() + "; " + SYNTAX);
    }
  }

  private Map<String, List<Affinity>> simple(JsonNode root) {
    Map<String, Set<String>> peers = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      for (JsonNode item : e.getValue()) {
        String peer = item.asText();
        if (!peer.equals(e.getKey())) {
          peers.computeIfAbsent(e.getKey(), k -> new LinkedHashSet<>()).add(peer);
          peers.computeIfAbsent(peer, k -> new LinkedHashSet<>()).add(e.getKey());
        }
      }
    }
    Map<String, List<Affinity>> out = new LinkedHashMap<>();
    peers.forEach(
        (name, names) -> {
          Expression.Operator op =
              names.size() == 1 ? Expression.Operator.EQUALS : Expression.Operator.IN;
          Expression match = new Expression("name", op, List.copyOf(names));
          out.put(name, List.of(new Affinity(podScope, match, sign)));
        });
    return out;
  }

  private Map<String, List<Affinity>> full(JsonNode root) {
    Map<String, List<Affinity>> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      List<Affinity> list = new ArrayList<>();
      int i = 0;
      for (JsonNode item : e.getValue()) {
        list.add(affinity(e.getKey() + "[" + i++ + "]", item));
      }
      out.put(e.getKey(), List.copyOf(list));
    }
    return out;
  }

  private Affinity affinity(String path, JsonNode node) {
    Map<String, JsonNode> fields = fields(path, node, List.of("scope", "match", "weight"));
    JsonNode match = fields.get("match");
    if (match == null) {
      throw error(path, "match is missing; expected {scope, match, weight}");
    }
    JsonNode scope = fields.get("scope");
    return new Affinity(
        scope == null ? podScope : expression(path + ".scope", scope),
        expression(path + ".match", match),
        weight(path + ".weight", fields.get("weight")));
  }

  private int weight(String path, @org.jspecify.annotations.Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return sign;
    }
    if (!node.isIntegralNumber()) {
      throw error(path, "invalid value " + node + ": expected an integer in [-1000, 1000]");
    }
    long w = Math.max(-1000, Math.min(1000, node.longValue()));
    return w == 0 ? sign : (int) w * sign;
  }

  private Expression expression(String path, JsonNode node) {
    Map<String, JsonNode> fields = fields(path, node, List.of("key", "operator", "values"));
    JsonNode op = fields.get("operator");
    if (op == null || !op.isTextual()) {
      throw error(path, "operator is missing or not a string");
    }
    JsonNode key = fields.get("key");
    if (key != null && !key.isTextual()) {
      throw error(path + ".key", "invalid value " + key + ": expected a string");
    }
    List<String> values = values(path, fields);
    try {
      Expression.Operator operator = Expression.Operator.parse(op.textValue());
      if (key == null && operator != Expression.Operator.ALWAYS_TRUE) {
        throw new IllegalArgumentException("key is missing");
      }
      return new Expression(key == null ? "" : key.textValue(), operator, values);
    } catch (IllegalArgumentException e) {
      throw error(path, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  private List<String> values(String path, Map<String, JsonNode> fields) {
    JsonNode values = fields.get("values");
    if (values == null || values.isNull()) {
      return List.of();
    }
    if (!values.isArray()) {
      throw error(path + ".values", "invalid value " + values + ": expected a list of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode v : values) {
      if (!v.isValueNode() || v.isNull()) {
        throw error(path + ".values", "invalid value " + v + ": expected a string");
      }
      out.add(v.asText());
    }
    return out;
  }

  // The fields of a mapping by lower-case name (Go's JSON decoding ignores case), known ones only.
  private Map<String, JsonNode> fields(String path, JsonNode node, List<String> known) {
    if (!node.isObject()) {
      throw error(path, "invalid value " + node + ": expected a mapping with " + known);
    }
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String name = e.getKey().toLowerCase(Locale.ROOT);
      if (!known.contains(name)) {
        throw error(path + "." + e.getKey(), "unknown key, expected one of " + known);
      }
      if (out.put(name, e.getValue()) != null) {
        throw error(path + "." + e.getKey(), "duplicate key");
      }
    }
    return out;
  }

  private IllegalArgumentException error(String path, String problem) {
    String where = path.isEmpty() ? "" : path + ": ";
    return new IllegalArgumentException("annotation " + annotation + ": " + where + problem);
  }
}
