package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyMetrics.Gauge;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Introspection and gauges. */
class PolicyViewTest {
  private final Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");

  @Test
  void introspectionShowsPoolsCapacityAndGrants() {
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    h.create("default", "pod1", 1, new Resources(500, 1000, 0, 0));
    JsonNode view = h.policy.introspect(h.node.cache());
    JsonNode numa1 = view.path("pools").get(1);
    assertEquals("NUMA node #1", numa1.path("name").asText());
    assertEquals("socket #0", numa1.path("parent").asText());
    assertEquals("4-7", numa1.path("capacity").path("sharable").asText());
    assertEquals("5-7", numa1.path("free").path("sharable").asText());
    assertEquals(3000, numa1.path("free").path("sharedMilli").asLong());
    assertEquals(1, numa1.path("grants").size());
    JsonNode numa2 = view.path("pools").get(3);
    assertEquals(3500, numa2.path("free").path("sharedMilli").asLong());
    assertEquals(h.byName("pod1c0").cacheId(), numa2.path("grants").get(0).asText());
    assertEquals(
        "4",
        view.path("allocations").path(h.byName("pod0c0").cacheId()).path("exclusive").asText());
    assertEquals(true, view.path("options").path("PinCPU").asBoolean());
  }

  @Test
  void gaugesPerPool() {
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    List<Gauge> gauges = h.policy.collect(h.node.cache());
    assertEquals(3 * 7, gauges.size());
    Map<String, String> numa1 = Map.of("policy", "topology-aware", "pool", "NUMA node #1");
    assertEquals(3000, value(gauges, "shared_capacity_milli", numa1));
    assertEquals(2, value(gauges, "free_exclusive_cpus", numa1));
    assertEquals(1, value(gauges, "granted_containers", numa1));
  }

  private static double value(List<Gauge> gauges, String name, Map<String, String> labels) {
    return gauges.stream()
        .filter(g -> g.name().equals(PolicyView.PREFIX + name) && g.labels().equals(labels))
        .findFirst()
        .orElseThrow()
        .value();
  }
}
