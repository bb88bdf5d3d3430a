package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One reading of the node: every running container by name, the names of the containers the
 * resource manager holds an assignment for, and the daemon's {@code /introspect} JSON.
 *
 * @param running running containers by name, in creation order
 * @param allocated names of active containers with an assignment in the resource manager's cache
 * @param introspection the daemon's {@code /introspect} document (a missing node if unavailable)
 * @param duplicates names of which several containers run (an error when verified)
 */
public record Observed(
    Map<String, ContainerFacts> running,
    Set<String> allocated,
    JsonNode introspection,
    Set<String> duplicates) {

  /** Copies the collections, keeping the order of {@code running}. */
  public Observed {
    running = Collections.unmodifiableMap(new LinkedHashMap<>(running));
    allocated = Set.copyOf(allocated);
    Objects.requireNonNull(introspection, "introspection");
    duplicates = Set.copyOf(duplicates);
  }
}
