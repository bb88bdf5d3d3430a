package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Policy data across policy instances: a restart (same options) reinstates every grant verbatim;
 * other available CPUs reallocate the grants that no longer fit, with their old pool as hint.
 */
class RestartTest {
  private final Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");

  private void workload() {
    h.guaranteed("pod0", 2, 1000, 100 * MB);
    h.guaranteed("pod1", 1, 2500, 100 * MB);
    h.create("default", "pod2", 2, new Resources(500, 1000, 0, 200 * MB));
    h.create("default", "pod3", 1, Resources.NONE);
  }

  @Test
  void aRestartedPolicyContinuesWhereTheOldOneStopped() {
    workload();
    Harness twin = new Harness(Topologies.n4c16(), Map.of(), "750m");
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.guaranteed("pod4", 1, 3000, 100 * MB);
    // a policy that never restarted decides the same
    twin.guaranteed("pod0", 2, 1000, 100 * MB);
    twin.guaranteed("pod1", 1, 2500, 100 * MB);
    twin.create("default", "pod2", 2, new Resources(500, 1000, 0, 200 * MB));
    twin.create("default", "pod3", 1, Resources.NONE);
    twin.guaranteed("pod4", 1, 3000, 100 * MB);
    for (Container c : h.node.cache().containers()) {
      assertEquals(twin.byName(c.name()).assignment(), c.assignment(), c.name());
    }
    assertEquals(
        twin.node.cache().policyData("topology-aware"),
        h.node.cache().policyData("topology-aware"));
  }

  @Test
  void reinstatedGrantsCauseNoUpdates() {
    workload();
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    Decisions d = h.policy.rebalance(h.node.cache());
    assertEquals(List.of(), d.updates());
  }

  @Test
  void grantsOfContainersThatAreGoneAreDropped() {
    workload();
    Container c = h.byName("pod0c0");
    h.node.cache().removeContainer(c.cacheId());
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.guaranteed("pod5", 1, 1000, 100 * MB);
    JsonNode data = h.node.cache().policyData("topology-aware").orElseThrow();
    assertFalse(data.path("allocations").has(c.cacheId()));
    assertTrue(data.path("allocations").has(h.byName("pod5c0").cacheId()));
  }

  @Test
  void allocatingAContainerThatHasAGrantKeepsIt() {
    workload();
    Container c = h.byName("pod1c0");
    CpuSet before = c.assignment().cpus();
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    Decisions d = h.policy.allocate(h.byName("pod1c0"), h.node.cache());
    assertEquals(before, d.updates().get(0).assignment().cpus());
    assertEquals(1, d.updates().size());
  }

  @Test
  void otherAvailableCpusReallocateWhatNoLongerFits() {
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    h.guaranteed("pod1", 1, 2000, 100 * MB);
    assertEquals(CpuSet.of(4), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(8, 9), h.cpus("pod1c0"));
    h.recreate(Map.of("CPU", "cpuset:8-15"), "cpuset:15", TopologyAwareOptions.DEFAULTS);
    h.rebalance();
    assertTrue(CpuSet.range(8, 14).containsAll(h.cpus("pod0c0")), h.cpus("pod0c0").toString());
    assertEquals(1, h.cpus("pod0c0").size());
    assertEquals(CpuSet.of(8, 9), h.cpus("pod1c0"));
    assertFalse(h.cpus("pod0c0").intersects(h.cpus("pod1c0")));
  }

  @Test
  void anUpdateReallocatesInTheSamePoolIfItFits() {
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    h.guaranteed("pod1", 1, 1000, 100 * MB);
    assertEquals(CpuSet.of(8), h.cpus("pod1c0"));
    Container c =
        h.node.setResources(h.byName("pod1c0").cacheId(), new Resources(2000, 2000, 0, 0));
    h.apply(h.policy.update(c, h.node.cache()));
    assertEquals(CpuSet.of(8, 9), h.cpus("pod1c0"));
    h.node.setState(c.cacheId(), ContainerState.RUNNING);
  }
}
