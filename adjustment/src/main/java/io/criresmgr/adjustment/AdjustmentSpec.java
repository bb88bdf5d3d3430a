package io.criresmgr.adjustment;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An adjustment's {@code spec}, as written and checked by {@link AdjustmentValidator}: the agent
 * matches its scope against the node and sends it on, the daemon maps it to what it evaluates.
 *
 * @param scope where the adjustment applies; it applies to a node if any entry matches it
 * @param requests resource requests by resource ({@link #RESOURCES})
 * @param limits resource limits by resource; each at least the request of its resource
 * @param rdtClass the RDT class to use, if set
 * @param blockioClass the block I/O class to use, if set
 * @param toptierLimit the top-tier memory limit, if set
 */
public record AdjustmentSpec(
    List<ScopeEntry> scope,
    Map<String, Quantity> requests,
    Map<String, Quantity> limits,
    Optional<String> rdtClass,
    Optional<String> blockioClass,
    Optional<Quantity> toptierLimit) {
  /** The resources a spec may adjust. */
  public static final List<String> RESOURCES = List.of("cpu", "memory");

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
    List<ScopeEntry> matching = scope.stream().filter(s -> s.matchesNode(nodeName)).toList();
    return new AdjustmentSpec(matching, requests, limits, rdtClass, blockioClass, toptierLimit);
  }
}
