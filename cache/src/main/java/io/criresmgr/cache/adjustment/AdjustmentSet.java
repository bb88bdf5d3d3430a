package io.criresmgr.cache.adjustment;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The adjustments in force on this node, by name (sorted, so conflicts are named in a stable
 * order).
 *
 * @param nodeName this node's name, as the agent sent it
 * @param specs adjustments by name
 */
public record AdjustmentSet(String nodeName, Map<String, AdjustmentSpec> specs) {
  /** No adjustments. */
  public static final AdjustmentSet EMPTY = new AdjustmentSet("", Map.of());

  /** Checks for nulls and sorts the specs by name. */
  public AdjustmentSet {
    Objects.requireNonNull(nodeName, "nodeName");
    specs = Collections.unmodifiableMap(new TreeMap<>(specs));
  }

  /** The adjustments that apply to {@code container} of {@code pod}, by name. */
  public List<AdjustmentSpec> matching(Container container, Pod pod) {
    return specs.values().stream().filter(s -> s.appliesTo(nodeName, container, pod)).toList();
  }

  /**
   * The adjustment in effect for {@code container} of {@code pod}: {@link Adjustment#NONE}, or the
   * one that applies.
   *
   * @throws AdjustmentException if more than one applies, or one sets the resources of a BestEffort
   *     container (which would change its QoS class behind Kubernetes' back)
   */
  public Adjustment resolve(Container container, Pod pod) throws AdjustmentException {
    List<AdjustmentSpec> found = matching(container, pod);
    if (found.isEmpty()) {
      return Adjustment.NONE;
    }
    String who = pod.namespace() + "/" + pod.name() + ":" + container.name();
    if (found.size() > 1) {
      throw new AdjustmentException(
          "conflicting adjustments for "
              + who
              + ": "
              + String.join(", ", found.stream().map(AdjustmentSpec::name).toList())
              + "; at most one may apply to a container",
          false);
    }
    Adjustment effect = found.get(0).effect();
    if (effect.resources().isPresent() && container.qosClass() == QosClass.BEST_EFFORT) {
      throw new AdjustmentException(
          "adjustment "
              + effect.name()
              + ": "
              + who
              + " is BestEffort; its resources cannot be adjusted (narrow the scope or drop"
              + " resources)",
          false);
    }
    return effect;
  }
}
