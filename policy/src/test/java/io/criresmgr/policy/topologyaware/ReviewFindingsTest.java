package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyTimer;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Regression tests of the review of issue 4. */
class ReviewFindingsTest {
  private static final long M = 1_000_000;

  private static Harness coldStarting() {
    Harness h = new Harness(Topologies.c4pmem4(), Map.of(), "750m");
    h.clock = Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC);
    h.recreate(Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.requests.memory(
        "pod0c0",
        m ->
            new MemoryRequest(
                EnumSet.of(MemoryType.DRAM, MemoryType.PMEM),
                m.bytes(),
                Duration.ofSeconds(10),
                false));
    h.guaranteed("pod0", 1, 500, 1L << 30);
    return h;
  }

  @Test
  void aRunningColdStartStillEndsWhenTheContainerIsUpdated() {
    Harness h = coldStarting();
    h.start("pod0c0");
    PolicyTimer timer = h.last.timers().get(0);
    h.apply(h.policy.update(h.byName("pod0c0"), h.node.cache()));
    assertEquals(CpuSet.of(7), h.mems("pod0c0"));
    h.apply(h.policy.handleEvent(timer.event(), h.node.cache()));
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
  }

  @Test
  void aFinishedColdStartDoesNotRestartWhenTheContainerIsUpdated() {
    Harness h = coldStarting();
    h.start("pod0c0");
    h.apply(h.policy.handleEvent(h.last.timers().get(0).event(), h.node.cache()));
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
    h.apply(h.policy.update(h.byName("pod0c0"), h.node.cache()));
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
  }

  @Test
  void aRunningColdStartStillEndsWhenARestartReallocatesTheContainer() {
    Harness h = coldStarting();
    h.start("pod0c0");
    PolicyTimer timer = h.last.timers().get(0);
    h.recreate(Map.of(), "cpuset:1", TopologyAwareOptions.DEFAULTS); // its CPU is reserved now
    h.rebalance();
    assertEquals(1, h.mems("pod0c0").size(), "still PMEM only: " + h.mems("pod0c0"));
    h.apply(h.policy.handleEvent(timer.event(), h.node.cache()));
    assertEquals(2, h.mems("pod0c0").size(), "DRAM and PMEM: " + h.mems("pod0c0"));
  }

  @Test
  void anUnisolatedNodeDoesNotSayIsolatedWhenIsolationWasOnlyPreferred() {
    Harness h =
        new Harness(Topologies.grid(1, 1, 1, 2, 1, 2L << 30, CpuSet.EMPTY), Map.of(), "cpuset:0");
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod0", 1, 2000, 100 * M));
    assertFalse(e.getMessage().contains("isolated exclusive"), e.getMessage());
  }

  @Test
  void aReallocationThatBreaksTheMemoryGuaranteeLeavesNoGrantBehind() {
    // root socket #0 with NUMA nodes 0 and 1 (CPU 0 and CPU 1, 2 GiB each)
    Harness h = new Harness(Topologies.grid(1, 1, 2, 1, 1, 2L << 30, CpuSet.EMPTY), Map.of(), "0");
    h.guaranteed("pod0", 1, 500, 1536L << 20);
    h.create("default", "pod1", 1, new Resources(900, 1000, 100 * M, 100 * M));
    assertEquals(CpuSet.of(0), h.mems("pod0c0"));
    assertEquals(CpuSet.of(1), h.cpus("pod1c0"));
    // pod1c0 now asks for 3 GiB: only the root holds it, but then pod0c0 cannot move up
    h.requests.memory(
        "pod1c0", m -> new MemoryRequest(m.types(), 3L << 30, m.coldStart(), m.preserve()));
    h.rebalance();
    assertEquals(CpuSet.of(1), h.cpus("pod1c0"));
    assertEquals(CpuSet.of(1), h.mems("pod1c0"));
    assertEquals(
        h.policy.tree().pools().stream()
            .filter(p -> p.name().equals("NUMA node #1"))
            .findFirst()
            .orElseThrow()
            .id(),
        h.policy
            .open(h.node.cache())
            .ledger()
            .grant(h.byName("pod1c0").cacheId())
            .orElseThrow()
            .pool());
  }

  @Test
  void aNumaNodeWithoutMemoryIsNotAMemoryNodeOfAnyGrant() {
    // (a pool of such nodes only pins no memory nodes: the container keeps kubelet's)
    SystemTopology grid = Topologies.grid(1, 1, 2, 1, 1, 2L << 30, CpuSet.EMPTY);
    Map<Integer, NumaNode> nodes = new TreeMap<>(grid.nodes());
    NumaNode n1 = nodes.get(1);
    nodes.put(
        1,
        new NumaNode(
            1, n1.cpus(), 0, n1.memoryType(), n1.far(), n1.distances(), n1.normalMemory()));
    SystemTopology t = new SystemTopology(grid.cpus(), nodes, grid.presentCpus(), CpuSet.EMPTY);
    Harness h = new Harness(t, Map.of(), "0");
    h.guaranteed("pod0", 1, 500, 100 * M);
    h.guaranteed("pod1", 1, 500, 100 * M);
    h.create("default", "pod2", 1, Resources.NONE);
    for (String c : new String[] {"pod0c0", "pod1c0", "pod2c0"}) {
      assertFalse(h.mems(c).contains(1), c + " pinned to memory nodes " + h.mems(c));
    }
  }
}
