package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.StrictMapping;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a policy's options section {@code policy.<name>} strictly, with the rules of the daemon's
 * configuration loader: keys match exactly or, failing that, case-insensitively (as cri-resmgr's Go
 * decoder did); unknown and duplicate keys are errors; a {@code null} value counts as not given.
 * Every error is a {@link PolicyException} whose message starts with the key's full path, e.g.
 * {@code policy.template.ExclusiveCpus: invalid value "maybe": expected true or false}.
 */
public final class OptionsReader {
  private final StrictMapping mapping;

  private OptionsReader(StrictMapping mapping) {
    this.mapping = mapping;
  }

  /**
   * A reader for {@code section} (missing or null: empty) of policy {@code policyName}, accepting
   * the keys {@code keys}.
   *
   * @throws PolicyException if the section is not a mapping or has an unknown or duplicate key
   */
  public static OptionsReader of(String policyName, JsonNode section, List<String> keys) {
    return new OptionsReader(
        StrictMapping.of("policy." + policyName, section, keys, PolicyException::new));
  }

  /** The full path of {@code key}, e.g. {@code policy.template.ExclusiveCpus}. */
  public String path(String key) {
    return mapping.path(key);
  }

  /** The value of {@code key}, if given. */
  public Optional<JsonNode> field(String key) {
    return mapping.field(key);
  }

  /** {@code key} as a boolean, or {@code dflt}; YAML 1.1's yes/no/on/off are accepted too. */
  public boolean bool(String key, boolean dflt) {
    return field(key).map(v -> bool(key, v)).orElse(dflt);
  }

  private boolean bool(String key, JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    return switch (value.isTextual() ? value.textValue().toLowerCase(Locale.ROOT) : "") {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw invalid(key, value, "expected true or false");
    };
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
    return new PolicyException(StrictMapping.invalidMessage(path(key), value, expected));
  }
}
