package io.criresmgr.agent.adjust;

import io.criresmgr.adjustment.AdjustmentSpec;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An {@code Adjustment} object as the agent sees it.
 *
 * @param name its {@code metadata.name}
 * @param spec its spec
 * @param nodeErrors its {@code status.nodes}: node name to that node's errors (container ID, or
 *     {@code request} or {@code cache}, to message)
 */
public record Adjustment(
    String name, AdjustmentSpec spec, Map<String, Map<String, String>> nodeErrors) {
  /** Copies the status; rejects an empty name. */
  public Adjustment {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
    nodeErrors =
        nodeErrors.entrySet().stream()
            .collect(
                Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    if (name.isEmpty()) {
      throw new IllegalArgumentException("empty name");
    }
  }

  /** The status entry of {@code nodeName}: its errors, or empty if the node has no entry. */
  public Optional<Map<String, String>> errorsOf(String nodeName) {
    return Optional.ofNullable(nodeErrors.get(nodeName));
  }
}
