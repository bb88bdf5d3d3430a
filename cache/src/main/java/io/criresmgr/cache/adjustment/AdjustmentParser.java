package io.criresmgr.cache.adjustment;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.criresmgr.adjustment.AdjustmentValidator;
import io.criresmgr.adjustment.ContainerExpression;
import io.criresmgr.adjustment.Quantity;
import io.criresmgr.adjustment.ScopeEntry;
import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.files.ParseLimits;
import java.io.IOException;
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
  private static final JsonFactory JSON = ParseLimits.ADJUSTMENTS.jsonFactory();

  private AdjustmentParser() {}

  /**
   * The adjustments in {@code json} for node {@code nodeName}.
   *
   * @throws AdjustmentException if it is no JSON object ({@link AdjustmentException#undecodable})
   *     or any spec is invalid (all problems, one per line)
   */
  public static AdjustmentSet parse(String nodeName, String json) throws AdjustmentException {
    @Nullable Object root;
    try (JsonParser parser = JSON.createParser(json)) {
      root = parser.nextToken() == null ? null : tree(parser);
      JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        // Trailing content means the payload is not the one JSON value it should be.
        throw new AdjustmentException(
            "adjustments: not JSON: Trailing token (of type " + trailing + ") found after value",
            true);
      }
    } catch (IOException e) {
      String message =
          e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
      throw new AdjustmentException("adjustments: not JSON: " + message, true);
    }
    if (!(root instanceof Map<?, ?> object)) {
      throw new AdjustmentException("adjustments: expected a JSON object of name to spec", true);
    }
    Map<String, @Nullable Object> specs = new LinkedHashMap<>();
    object.forEach((name, spec) -> specs.put((String) name, spec));
    AdjustmentValidator.Checked checked = AdjustmentValidator.check(specs);
    if (!checked.valid()) {
      throw new AdjustmentException(String.join("\n", checked.problems()), false);
    }
    Map<String, AdjustmentSpec> out = new LinkedHashMap<>();
    checked.specs().forEach((name, spec) -> out.put(name, of(name, spec)));
    return new AdjustmentSet(nodeName, out);
  }

  /**
   * The value at the parser's current token as the validator's plain tree. Numbers keep the text
   * they were written with ({@link WrittenNumber}), as the agent's Gson numbers do: a double would
   * turn {@code 1e-400} into 0 and {@code 1e400} into Infinity, so the daemon would accept or name
   * a value the agent refuses or names as written (docs/adr/0014-one-adjustment-model.md). The
   * factory's limits bound the nesting, and so this recursion. A repeated key keeps its first place
   * and its last value, as Jackson's tree did.
   */
  private static @Nullable Object tree(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, @Nullable Object> map = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          parser.nextToken();
          map.put(key, tree(parser));
        }
        return map;
      }
      case START_ARRAY -> {
        List<@Nullable Object> list = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(tree(parser));
        }
        return list;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return new WrittenNumber(parser.getText());
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return token == JsonToken.VALUE_TRUE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new JsonParseException(parser, "unexpected " + token);
    }
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
