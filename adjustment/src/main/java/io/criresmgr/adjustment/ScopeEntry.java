package io.criresmgr.adjustment;

import java.util.List;

/**
 * One entry of an adjustment's scope: the nodes it is meant for and, on those nodes, the
 * containers.
 *
 * @param nodes node names; a trailing {@code *} matches by prefix; empty matches every node
 * @param containers expressions of which any must match a container; empty matches every container
 */
public record ScopeEntry(List<String> nodes, List<ContainerExpression> containers) {
  /** Copies the lists. */
  public ScopeEntry {
    nodes = List.copyOf(nodes);
    containers = List.copyOf(containers);
  }

  /** Whether this entry is meant for node {@code nodeName}. */
  public boolean matchesNode(String nodeName) {
    return nodes.isEmpty() || nodes.stream().anyMatch(pattern -> nodeMatches(pattern, nodeName));
  }

  /** Whether node name {@code node} matches {@code pattern} (a trailing {@code *}: prefix). */
  public static boolean nodeMatches(String pattern, String node) {
    return pattern.endsWith("*")
        ? node.startsWith(pattern.substring(0, pattern.length() - 1))
        : pattern.equals(node);
  }
}
