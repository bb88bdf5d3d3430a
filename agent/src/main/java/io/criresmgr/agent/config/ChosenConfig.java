package io.criresmgr.agent.config;

import java.util.Map;
import java.util.Objects;

/**
 * The configuration chosen for this node: the ConfigMap's {@code data} (section name, e.g. {@code
 * policy}, to YAML text, passed on verbatim) and where it came from.
 *
 * @param data section name to YAML text; empty when no ConfigMap applies
 * @param source the ConfigMap the data came from, or why the configuration is empty
 */
public record ChosenConfig(Map<String, String> data, String source) {

  /** Copies {@code data} into an immutable map. */
  public ChosenConfig {
    data = Map.copyOf(data);
    Objects.requireNonNull(source, "source");
  }

  /** The configuration of the ConfigMap {@code name}. */
  public static ChosenConfig of(String name, Map<String, String> data) {
    return new ChosenConfig(data, "ConfigMap " + name);
  }

  /** An empty configuration (every module at its defaults), with the reason. */
  public static ChosenConfig empty(String why) {
    return new ChosenConfig(Map.of(), why);
  }
}
