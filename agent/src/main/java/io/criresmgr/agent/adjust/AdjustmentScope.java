package io.criresmgr.agent.adjust;

import java.util.List;

/**
 * One entry of an adjustment's scope: the nodes it is meant for and, on those nodes, the
 * containers.
 *
 * @param nodes node names; a trailing {@code *} matches by prefix; empty matches every node
 * @param containers expressions of which any must match a container; empty matches every container
 */
public record AdjustmentScope(List<String> nodes, List<ContainerExpression> containers) {
  /** Copies the lists; rejects empty node names. */
  public AdjustmentScope {
    nodes = List.copyOf(nodes);
    containers = List.copyOf(containers);
    if (nodes.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException("empty node name");
    }
  }

  /** Whether this entry is meant for node {@code nodeName}. */
  public boolean matchesNode(String nodeName) {
    return nodes.isEmpty() || nodes.stream().anyMatch(pattern -> matches(pattern, nodeName));
  }

  private static boolean matches(String pattern, String nodeName) {
    return pattern.endsWith("*")
        ? nodeName.startsWith(pattern.substring(0, pattern.length() - 1))
        : pattern.equals(nodeName);
  }
}
