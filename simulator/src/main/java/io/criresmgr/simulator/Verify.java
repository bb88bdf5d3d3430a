package io.criresmgr.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The expectations of a {@code verify} step: checks per container (keys other than the reserved
 * ones below are container names), relations ({@code disjoint}, {@code same}, {@code different},
 * {@code subset}), a check applied to every running container ({@code all}), alternatives ({@code
 * any}: at least one of the listed verify blocks holds), and how long to wait for them to hold
 * ({@code timeout}, default {@link #DEFAULT_TIMEOUT}).
 *
 * @param containers checks by container name (a list in the file: all must hold)
 * @param relations relations between containers
 * @param all check for every running container
 * @param any alternatives, each a verify block; empty when not given
 * @param timeout how long the placement may take to settle
 */
record Verify(
    Map<String, List<ContainerCheck>> containers,
    List<Relation> relations,
    Optional<ContainerCheck> all,
    List<Verify> any,
    Duration timeout) {

  /** Updates of other containers are applied asynchronously; give them this long. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

  /** Keys that are not container names. */
  static final List<String> RESERVED =
      List.of("disjoint", "same", "different", "subset", "all", "any", "timeout");

  /** Copies the collections. */
  Verify {
    Map<String, List<ContainerCheck>> copy = new LinkedHashMap<>();
    containers.forEach((name, checks) -> copy.put(name, List.copyOf(checks)));
    containers = java.util.Collections.unmodifiableMap(copy);
    relations = List.copyOf(relations);
    any = List.copyOf(any);
  }

  /** Parses a verify block. */
  static Verify parse(ScenarioNode node) {
    Map<String, List<ContainerCheck>> containers = new LinkedHashMap<>();
    List<Relation> relations = new ArrayList<>();
    Optional<ContainerCheck> all = Optional.empty();
    List<Verify> any = new ArrayList<>();
    Duration timeout = DEFAULT_TIMEOUT;
    for (Map.Entry<String, ScenarioNode> e : node.mapping().entrySet()) {
      ScenarioNode value = e.getValue();
      switch (e.getKey()) {
        case "all" -> all = Optional.of(ContainerCheck.parse(value));
        case "any" -> value.list().forEach(v -> any.add(parse(v)));
        case "timeout" -> timeout = value.duration();
        default -> {
          Relation.Kind kind = kind(e.getKey());
          if (kind != null) {
            relations.addAll(Relation.parse(kind, value));
          } else {
            containers.put(
                e.getKey(), value.listOrOne().stream().map(ContainerCheck::parse).toList());
          }
        }
      }
    }
    return new Verify(containers, relations, all, any, timeout);
  }

  private static Relation.@Nullable Kind kind(String key) {
    for (Relation.Kind k : Relation.Kind.values()) {
      if (k.key().equals(key)) {
        return k;
      }
    }
    return null;
  }
}
