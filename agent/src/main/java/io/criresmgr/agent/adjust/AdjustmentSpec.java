package io.criresmgr.agent.adjust;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An adjustment's {@code spec}, as the agent needs it: the scope to match the node against, and the
 * rest to pass on to the daemon, which checks what the values mean.
 *
 * @param scope where the adjustment applies; an adjustment applies to a node if any entry matches
 * @param requests resource requests (cpu, memory) as Kubernetes quantities
 * @param limits resource limits (cpu, memory) as Kubernetes quantities
 * @param rdtClass the RDT class to use, if set
 * @param blockioClass the block I/O class to use, if set
 * @param toptierLimit the top-tier memory limit as a quantity, if set
 */
public record AdjustmentSpec(
    List<AdjustmentScope> scope,
    Map<String, String> requests,
    Map<String, String> limits,
    Optional<String> rdtClass,
    Optional<String> blockioClass,
    Optional<String> toptierLimit) {

  /** Copies the collections. */
  public AdjustmentSpec {
    scope = List.copyOf(scope);
    requests = Map.copyOf(requests);
    limits = Map.copyOf(limits);
    Objects.requireNonNull(rdtClass, "rdtClass");
    Objects.requireNonNull(blockioClass, "blockioClass");
    Objects.requireNonNull(toptierLimit, "toptierLimit");
  }

  /** Whether the adjustment is meant for node {@code nodeName} (any scope entry matches it). */
  public boolean isInScope(String nodeName) {
    return scope.stream().anyMatch(s -> s.matchesNode(nodeName));
  }

  /** This spec with only the scope entries that match {@code nodeName}, as sent to its daemon. */
  public AdjustmentSpec forNode(String nodeName) {
    List<AdjustmentScope> matching = scope.stream().filter(s -> s.matchesNode(nodeName)).toList();
    return new AdjustmentSpec(matching, requests, limits, rdtClass, blockioClass, toptierLimit);
  }
}
