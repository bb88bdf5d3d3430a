package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.PolicyException;
import java.util.List;
import java.util.Map;

/**
 * Options of nri-plugins' balloons policy that this policy does not take (here, or at all yet): an
 * error that says so beats a bare "unknown key" for users coming from nri-plugins.
 */
final class NriOnlyKeys {
  /** Policy-level keys, each with where the setting goes instead ({@code ""}: not supported). */
  static final Map<String, String> POLICY =
      Map.ofEntries(
          Map.entry("availableResources", "policy.AvailableResources"),
          Map.entry("reservedResources", "policy.ReservedResources"),
          Map.entry("cpuClasses", "the cpu controller's classes (section cpu)"),
          Map.entry("control", "section resource-manager.control and the controller sections"),
          Map.entry("preserve", ""),
          Map.entry("showContainersInNrt", ""),
          Map.entry("schedulingClasses", ""),
          Map.entry("turboDomain", ""),
          Map.entry("controllableInterrupts", ""));

  /** Balloon-type keys of nri-plugins not supported yet. */
  static final List<String> TYPE =
      List.of(
          "components",
          "componentCreation",
          "preferFarFromDevices",
          "schedulingClass",
          "showContainersInNrt",
          "irqClaim",
          "irqMode");

  private NriOnlyKeys() {}

  /**
   * Rejects the first key of {@code section} found in {@code nriOnly} (case-insensitively).
   *
   * @param path the section's path, e.g. {@code policy.balloons}
   * @throws PolicyException {@code <path>.<key>: nri-plugins option, not supported ...}
   */
  static void reject(
      String path, JsonNode section, Map<String, String> nriOnly, List<String> keys) {
    if (!section.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> e : section.properties()) {
      for (Map.Entry<String, String> n : nriOnly.entrySet()) {
        if (n.getKey().equalsIgnoreCase(e.getKey())) {
          throw new PolicyException(
              path
                  + "."
                  + e.getKey()
                  + ": nri-plugins option, not supported"
                  + (n.getValue().isEmpty() ? " (yet)" : "; set " + n.getValue() + " instead")
                  + ", expected one of "
                  + String.join(", ", keys));
        }
      }
    }
  }
}
