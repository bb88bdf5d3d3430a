package io.criresmgr.proxy.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The model's {@code cpuSets}: the policy's named CPU sets, read from its introspection view, each
 * {@code {"name", "kind", "cpus"}} with kind {@code reserved}, {@code shared}, {@code exclusive},
 * {@code isolated}, {@code balloon} or {@code free}. Topology-aware: reserved, isolated, shared and
 * the exclusive CPUs of its grants; balloons: reserved, every balloon and the free CPUs; template:
 * shared and each exclusive container's CPUs. Other policies (none) have none: the view then shows
 * the containers' CPU sets alone.
 */
final class PolicySets {
  private PolicySets() {}

  /** The sets of {@code policy}'s {@code view}; empty without a view or for other policies. */
  static ArrayNode of(String policy, @Nullable JsonNode view) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    if (view == null) {
      return out;
    }
    switch (policy) {
      case "topology-aware", "memtier" -> topologyAware(view, out);
      case "balloons" -> balloons(view, out);
      case "template" -> template(view, out);
      default -> {}
    }
    return out;
  }

  private static void topologyAware(JsonNode view, ArrayNode out) {
    JsonNode root = rootPool(view.path("pools"));
    if (root == null) {
      return;
    }
    CpuSet exclusive = CpuSet.EMPTY;
    for (Map.Entry<String, JsonNode> grant : view.path("allocations").properties()) {
      CpuSet cpus = cpus(grant.getValue().path("exclusive"));
      exclusive = exclusive.union(cpus);
      add(out, grant.getKey(), "exclusive", cpus);
    }
    JsonNode capacity = root.path("capacity");
    add(out, "reserved", "reserved", cpus(capacity.path("reserved")));
    add(out, "isolated", "isolated", cpus(capacity.path("isolated")).difference(exclusive));
    add(out, "shared", "shared", cpus(capacity.path("sharable")).difference(exclusive));
  }

  private static @Nullable JsonNode rootPool(JsonNode pools) {
    for (JsonNode pool : pools) {
      if (pool.path("parent").asText().isEmpty()) {
        return pool;
      }
    }
    return null;
  }

  private static void balloons(JsonNode view, ArrayNode out) {
    add(out, "reserved", "reserved", cpus(view.path("reservedCpus")));
    for (JsonNode b : view.path("balloons")) {
      add(out, b.path("name").asText(), "balloon", cpus(b.path("cpus")));
    }
    add(out, "free", "free", cpus(view.path("freeCpus")));
  }

  private static void template(JsonNode view, ArrayNode out) {
    add(out, "shared", "shared", cpus(view.path("sharedPool")));
    for (Map.Entry<String, JsonNode> e : view.path("exclusive").properties()) {
      add(out, e.getKey(), "exclusive", cpus(e.getValue()));
    }
  }

  private static CpuSet cpus(JsonNode text) {
    return CpuSet.parse(text.asText(""));
  }

  private static void add(ArrayNode out, String name, String kind, CpuSet cpus) {
    if (cpus.isEmpty()) {
      return;
    }
    ObjectNode set = out.addObject();
    set.put("name", name);
    set.put("kind", kind);
    set.put("cpus", cpus.toString());
  }
}
