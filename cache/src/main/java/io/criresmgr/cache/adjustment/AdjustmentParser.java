package io.criresmgr.cache.adjustment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.criresmgr.adjustment.AdjustmentValidator;
import io.criresmgr.adjustment.ContainerExpression;
import io.criresmgr.adjustment.Quantity;
import io.criresmgr.adjustment.ScopeEntry;
import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.files.ParseLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@code SetAdjustment} JSON (Adjustment name to spec, as in the custom resource), checks
 * every spec with the validator the node agent uses too ({@link AdjustmentValidator},
 * docs/adr/0014-one-adjustment-model.md), and maps the valid specs to what the daemon evaluates.
 */
public final class AdjustmentParser {
  // Trailing content means the payload is not the one JSON value it should be.
  private static final JsonMapper JSON =
      JsonMapper.builder(ParseLimits.ADJUSTMENTS.jsonFactory())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

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
    Map<String, @Nullable Object> specs = new LinkedHashMap<>();
    root.properties().forEach(e -> specs.put(e.getKey(), tree(e.getValue())));
    AdjustmentValidator.Checked checked = AdjustmentValidator.check(specs);
    if (!checked.valid()) {
      throw new AdjustmentException(String.join("\n", checked.problems()), false);
    }
    Map<String, AdjustmentSpec> out = new LinkedHashMap<>();
    checked.specs().forEach((name, spec) -> out.put(name, of(name, spec)));
    return new AdjustmentSet(nodeName, out);
  }

  /** {@code node} as the validator's plain tree (numbers as {@link java.math.BigDecimal}). */
  static @Nullable Object tree(JsonNode node) {
    if (node.isObject()) {
      Map<String, @Nullable Object> map = new LinkedHashMap<>();
      node.properties().forEach(e -> map.put(e.getKey(), tree(e.getValue())));
      return map;
    }
    if (node.isArray()) {
      List<@Nullable Object> list = new ArrayList<>();
      node.forEach(n -> list.add(tree(n)));
      return list;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isNumber()) {
      // A double beyond its range (1e400) is read as Infinity, which has no decimal value: kept
      // a Double, which the validator refuses as a quantity and as a string. (Reading floats as
      // BigDecimal instead fails inside the parser on exponents of many digits.)
      return node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())
          ? Double.valueOf(node.doubleValue())
          : node.decimalValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.isNull() || node.isMissingNode() ? null : node.toString();
  }

  /** A valid spec as the daemon evaluates it. */
  private static AdjustmentSpec of(String name, io.criresmgr.adjustment.AdjustmentSpec spec) {
    Optional<ResourceOverride.Amounts> cpu = amounts("cpu", spec);
    Optional<ResourceOverride.Amounts> memory = amounts("memory", spec);
    Optional<ResourceOverride> resources =
        cpu.isEmpty() && memory.isEmpty()
            ? Optional.empty()
            : Optional.of(new ResourceOverride(cpu, memory));
    OptionalLong toptier =
        spec.toptierLimit().map(q -> OptionalLong.of(q.value())).orElse(OptionalLong.empty());
    Adjustment effect =
        new Adjustment(
            name, resources, spec.rdtClass().orElse(""), spec.blockioClass().orElse(""), toptier);
    List<AdjustmentScope> scope = spec.scope().stream().map(AdjustmentParser::scope).toList();
    return new AdjustmentSpec(effect, scope);
  }

  // A missing request is the limit; a missing limit is 0 ("not set").
  private static Optional<ResourceOverride.Amounts> amounts(
      String resource, io.criresmgr.adjustment.AdjustmentSpec spec) {
    Quantity limit = spec.limits().get(resource);
    Quantity request = spec.requests().getOrDefault(resource, limit);
    if (request == null) {
      return Optional.empty();
    }
    return Optional.of(
        new ResourceOverride.Amounts(request.value(), limit == null ? 0 : limit.value()));
  }

  private static AdjustmentScope scope(ScopeEntry entry) {
    return new AdjustmentScope(
        entry.nodes(), entry.containers().stream().map(AdjustmentParser::expression).toList());
  }

  private static Expression expression(ContainerExpression e) {
    return new Expression(e.key(), Expression.Operator.of(e.operator()), e.values());
  }
}
