package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;

/**
 * Section {@code policy}.
 *
 * @param active the active placement policy
 * @param availableResources {@code AvailableResources} (e.g. {@code CPU: cpuset:1-15})
 * @param reservedResources {@code ReservedResources} (e.g. {@code CPU: 750m})
 * @param options per-policy sub-sections, kept as JSON until the named policy parses them
 */
public record PolicyConfig(
    String active,
    Map<String, String> availableResources,
    Map<String, String> reservedResources,
    Map<String, JsonNode> options) {
  /** Checks for nulls and copies the maps. */
  public PolicyConfig {
    Objects.requireNonNull(active, "active");
    availableResources = Map.copyOf(availableResources);
    reservedResources = Map.copyOf(reservedResources);
    options = Map.copyOf(options);
  }

  /**
   * Why switching from {@code current} to {@code next} is refused under {@code
   * --disable-policy-switch}.
   */
  public static String switchDisabled(String current, String next) {
    return "policy.Active: switching from "
        + current
        + " to "
        + next
        + " is disabled by --disable-policy-switch; keep policy.Active: "
        + current;
  }

  /** Policy {@code none}. */
  public static PolicyConfig defaults() {
    return new PolicyConfig("none", Map.of(), Map.of(), Map.of());
  }
}
