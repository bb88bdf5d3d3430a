package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One mapping of the configuration, read with the daemon's rules: keys match exactly or, failing
 * that, case-insensitively (as Go's {@code encoding/json} decoded cri-resmgr's and nri-plugins'
 * options); unknown and duplicate keys are errors; a {@code null} value counts as not given. Errors
 * start with the full path of the key and are made by the caller's factory, so each module throws
 * its own exception type.
 */
public final class StrictMapping {
  private final String path;
  private final Map<String, JsonNode> fields = new LinkedHashMap<>();
  private final Function<String, ? extends RuntimeException> error;

  private StrictMapping(String path, Function<String, ? extends RuntimeException> error) {
    this.path = Objects.requireNonNull(path, "path");
    this.error = Objects.requireNonNull(error, "error");
  }

  /**
   * The mapping {@code node} (missing or null: empty) at {@code path}, accepting {@code keys}.
   *
   * @throws RuntimeException from {@code error} if {@code node} is not a mapping or has an unknown
   *     or duplicate key
   */
  public static StrictMapping of(
      String path,
      JsonNode node,
      List<String> keys,
      Function<String, ? extends RuntimeException> error) {
    StrictMapping m = new StrictMapping(path, error);
    if (node.isMissingNode() || node.isNull()) {
      return m;
    }
    if (!node.isObject()) {
      throw error.apply(invalidMessage(path, node, "expected a mapping"));
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      m.accept(e.getKey(), e.getValue(), keys);
    }
    return m;
  }

  private void accept(String key, JsonNode value, List<String> keys) {
    String name =
        keys.contains(key)
            ? key
            : keys.stream().filter(k -> k.equalsIgnoreCase(key)).findFirst().orElse(null);
    if (name == null) {
      throw error.apply(path(key) + ": unknown key, expected one of " + String.join(", ", keys));
    }
    if (fields.containsKey(name)) {
      throw error.apply(
          path(key) + ": duplicate key (" + name + " is given twice, keys are case-insensitive)");
    }
    if (!value.isNull()) {
      fields.put(name, value);
    }
  }

  /** The full path of {@code key}. */
  public String path(String key) {
    return path + "." + key;
  }

  /** The value of {@code key} (its canonical spelling), if given. */
  public Optional<JsonNode> field(String key) {
    return Optional.ofNullable(fields.get(key));
  }

  /** The given fields by canonical key, in the order given. */
  public Map<String, JsonNode> fields() {
    return Collections.unmodifiableMap(fields);
  }

  /** The items of the list {@code key} (empty if not given). */
  public List<JsonNode> list(String key) {
    JsonNode value = fields.get(key);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw invalid(key, value, "expected a list");
    }
    List<JsonNode> items = new ArrayList<>();
    value.forEach(items::add);
    return items;
  }

  /**
   * The items of the list {@code key} parsed by {@code parse} (given each item's path, e.g. {@code
   * section.classes[2]}, and the item), whose {@code name}s must be unique.
   *
   * @param what what the names name, for the error, e.g. {@code class}
   */
  public <T> List<T> uniquelyNamed(
      String key, BiFunction<String, JsonNode, T> parse, Function<T, String> name, String what) {
    List<JsonNode> items = list(key);
    List<T> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String at = path(key) + "[" + i + "]";
      T item = parse.apply(at, items.get(i));
      if (out.stream().anyMatch(o -> name.apply(o).equals(name.apply(item)))) {
        throw error.apply(
            invalidMessage(
                at + ".name",
                items.get(i).get("name"),
                "duplicate " + what + " name, names must be unique"));
      }
      out.add(item);
    }
    return out;
  }

  /** The error for a bad {@code value} of {@code key}, see {@link #invalidMessage}. */
  public RuntimeException invalid(String key, JsonNode value, String expected) {
    return error.apply(invalidMessage(path(key), value, expected));
  }

  /** {@code <path>: invalid value <value as JSON>: <expected>}. */
  public static String invalidMessage(String path, JsonNode value, String expected) {
    return path + ": invalid value " + value + ": " + expected;
  }
}
