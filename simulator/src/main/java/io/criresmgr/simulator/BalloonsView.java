package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The balloons of the balloons policy's {@code /introspect} view ({@code policyView.balloons}: a
 * list of {@code {name, type, cpus, containers: [{id, ...}]}}), with container names in place of
 * cache ids.
 */
final class BalloonsView {
  /**
   * One balloon.
   *
   * @param name e.g. {@code latency-critical[0]}
   * @param type its balloon type ({@code ""} if the view does not say)
   * @param cpus its CPUs
   * @param containers names of its containers, in the view's order
   */
  record Entry(String name, String type, CpuSet cpus, List<String> containers) {
    Entry {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(cpus, "cpus");
      containers = List.copyOf(containers);
    }
  }

  private BalloonsView() {}

  /** The balloons of {@code introspection}; empty if its policy view has none. */
  static List<Entry> of(JsonNode introspection) {
    Map<String, String> names = PoolNames.containerNames(introspection);
    List<Entry> out = new ArrayList<>();
    for (JsonNode b : introspection.path("policyView").path("balloons")) {
      String name = b.path("name").asText("");
      if (name.isEmpty()) {
        continue;
      }
      List<String> members = new ArrayList<>();
      for (String id : cacheIds(b.path("containers"))) {
        members.add(names.getOrDefault(id, id));
      }
      out.add(new Entry(name, b.path("type").asText(""), cpus(b.path("cpus")), members));
    }
    return List.copyOf(out);
  }

  /** The balloon of each container, by container name. */
  static Map<String, String> poolsOf(JsonNode introspection) {
    Map<String, String> pools = new HashMap<>();
    for (Entry e : of(introspection)) {
      e.containers().forEach(c -> pools.put(c, e.name()));
    }
    return pools;
  }

  private static List<String> cacheIds(JsonNode containers) {
    List<String> ids = new ArrayList<>();
    for (JsonNode c : containers) { // {id, name, requestMilli}; nothing for a missing node
      String id = c.path("id").asText("");
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static CpuSet cpus(JsonNode cpus) {
    try {
      return CpuSet.parse(cpus.asText(""));
    } catch (IllegalArgumentException e) {
      return CpuSet.EMPTY; // a report shows what it can; the view's CPU format is not ours
    }
  }
}
