package io.criresmgr.cache.adjustment;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.List;
import java.util.Objects;

/**
 * One Adjustment as the daemon uses it: what it changes and where.
 *
 * @param effect the overrides, named after the Adjustment
 * @param scope where it applies: any entry covering the node and the container
 */
public record AdjustmentSpec(Adjustment effect, List<AdjustmentScope> scope) {
  /** Checks for nulls and copies the scope. */
  public AdjustmentSpec {
    Objects.requireNonNull(effect, "effect");
    scope = List.copyOf(scope);
  }

  /** The Adjustment's name. */
  public String name() {
    return effect.name();
  }

  /** Whether it applies to {@code container} of {@code pod} on node {@code node}. */
  public boolean appliesTo(String node, Container container, Pod pod) {
    return scope.stream().anyMatch(s -> s.coversNode(node) && s.coversContainer(container, pod));
  }
}
