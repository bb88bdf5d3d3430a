package io.criresmgr.cache.adjustment;

import io.criresmgr.adjustment.ScopeEntry;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.affinity.Expression;
import java.util.List;

/**
 * One entry of an adjustment's {@code scope}: the nodes and containers it covers.
 *
 * @param nodes node names; a trailing {@code *} matches by prefix; empty: every node
 * @param containers expressions of which any one must match; empty: every container
 */
public record AdjustmentScope(List<String> nodes, List<Expression> containers) {
  /** Copies the lists. */
  public AdjustmentScope {
    nodes = List.copyOf(nodes);
    containers = List.copyOf(containers);
  }

  /** Whether {@code node} is one of {@link #nodes}. */
  public boolean coversNode(String node) {
    return nodes.isEmpty() || nodes.stream().anyMatch(n -> nodeMatches(n, node));
  }

  /** Whether {@code container} of {@code pod} matches {@link #containers}. */
  public boolean coversContainer(Container container, Pod pod) {
    return containers.isEmpty() || containers.stream().anyMatch(e -> e.evaluate(container, pod));
  }

  /** Whether node name {@code node} matches {@code pattern} (a trailing {@code *}: prefix). */
  public static boolean nodeMatches(String pattern, String node) {
    return ScopeEntry.nodeMatches(pattern, node);
  }
}
