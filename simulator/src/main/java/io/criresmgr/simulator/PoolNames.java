package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pool of each container, when the active policy's {@code /introspect} view tells it: the
 * balloons policy's {@code balloons} list (see {@link BalloonsView}), a per-container map ({@code
 * grants}, {@code allocations} or {@code containers}, keyed by cache id, with a {@code pool}
 * field), or the template policy's {@code exclusive} map.
 */
final class PoolNames {
  private static final List<String> MAPS = List.of("grants", "allocations", "containers");

  private PoolNames() {}

  /** Pool names by container name; empty if the view says nothing about pools. */
  static Map<String, String> of(JsonNode introspection) {
    JsonNode view = introspection.path("policyView");
    if (view.path("balloons").isArray()) {
      return BalloonsView.poolsOf(introspection);
    }
    Map<String, String> names = containerNames(introspection);
    Map<String, String> pools = new HashMap<>();
    for (String key : MAPS) {
      view.path(key)
          .properties()
          .forEach(
              e -> {
                String pool = e.getValue().path("pool").asText("");
                if (!pool.isEmpty() && names.containsKey(e.getKey())) {
                  pools.put(names.get(e.getKey()), pool);
                }
              });
    }
    if (pools.isEmpty() && view.path("exclusive").isObject()) {
      names.forEach(
          (id, name) -> pools.put(name, view.path("exclusive").has(id) ? "exclusive" : "shared"));
    }
    return pools;
  }

  /** Container names by cache id, from the pods of {@code introspection}. */
  static Map<String, String> containerNames(JsonNode introspection) {
    Map<String, String> out = new HashMap<>();
    for (JsonNode pod : introspection.path("pods")) {
      for (JsonNode c : pod.path("containers")) {
        out.put(c.path("cacheId").asText(), c.path("name").asText());
      }
    }
    return out;
  }
}
