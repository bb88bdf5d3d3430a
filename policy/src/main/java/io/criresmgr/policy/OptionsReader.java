package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a policy's options section {@code policy.<name>} strictly, with the rules of the daemon's
 * configuration loader: keys match exactly or, failing that, case-insensitively (as cri-resmgr's Go
 * decoder did); unknown and duplicate keys are errors; a {@code null} value counts as not given.
 * Every error is a {@link PolicyException} whose message starts with the key's full path, e.g.
 * {@code policy.template.ExclusiveCpus: invalid value "maybe": expected true or false}.
 */
public final class OptionsReader {
  private final String path;
  private final Map<String, JsonNode> fields = new LinkedHashMap<>();

  private OptionsReader(String path) {
    this.path = path;
  }

  /**
   * A reader for {@code section} (missing or null: empty) of policy {@code policyName}, accepting
   * the keys {@code keys}.
   *
   * @throws PolicyException if the section is not a mapping or has an unknown or duplicate key
   */
  public static OptionsReader of(String policyName, JsonNode section, List<String> keys) {
    OptionsReader reader = new OptionsReader("policy." + policyName);
    if (section.isMissingNode() || section.isNull()) {
      return reader;
    }
    if (!section.isObject()) {
      throw new PolicyException(
          reader.path + ": invalid value " + section + ": expected a mapping");
    }
    for (Map.Entry<String, JsonNode> e : section.properties()) {
      reader.accept(e.getKey(), e.getValue(), keys);
    }
    return reader;
  }

  private void accept(String key, JsonNode value, List<String> keys) {
    String name =
        keys.contains(key)
            ? key
            : keys.stream().filter(k -> k.equalsIgnoreCase(key)).findFirst().orElse(null);
    if (name == null) {
      throw new PolicyException(
          path(key) + ": unknown key, expected one of " + String.join(", ", keys));
    }
    if (fields.containsKey(name)) {
      throw new PolicyException(
          path(key) + ": duplicate key (" + name + " is given twice, keys are case-insensitive)");
    }
    if (!value.isNull()) {
      fields.put(name, value);
    }
  }

  /** The full path of {@code key}, e.g. {@code policy.template.ExclusiveCpus}. */
  public String path(String key) {
    return path + "." + key;
  }

  /** The value of {@code key}, if given. */
  public Optional<JsonNode> field(String key) {
    return Optional.ofNullable(fields.get(key));
  }

  /** {@code key} as a boolean, or {@code dflt}; YAML 1.1's yes/no/on/off are accepted too. */
  public boolean bool(String key, boolean dflt) {
    return field(key).map(v -> bool(key, v)).orElse(dflt);
  }

  private boolean bool(String key, JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    switch (value.isTextual() ? value.textValue().toLowerCase(Locale.ROOT) : "") {
      case "true":
      case "yes":
      case "on":
        return true;
      case "false":
      case "no":
      case "off":
        return false;
      default:
        throw invalid(key, value, "expected true or false");
    }
  }

  /** {@code key} as a string, or {@code dflt}. */
  public String string(String key, String dflt) {
    return field(key)
        .map(
            v -> {
              if (!v.isTextual()) {
                throw invalid(key, v, "expected a string");
              }
              return v.textValue();
            })
        .orElse(dflt);
  }

  /**
   * An error for a bad value: {@code <path>: invalid value <value as JSON>: <expected>}.
   *
   * @param expected what is allowed, e.g. {@code expected true or false}
   */
  public PolicyException invalid(String key, JsonNode value, String expected) {
    return new PolicyException(path(key) + ": invalid value " + value + ": " + expected);
  }
}
