package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Idle and busy shared pools on {@code n4c16} (4 NUMA nodes of 4 CPUs, cpu0 reserved): exclusive
 * grants may slice a pool's shared CPUs empty when no container uses them; a pool whose shared CPUs
 * a container uses keeps at least one, whichever pool the grant comes from.
 */
class IdleSharedPoolsTest {
  private static final CpuSet NODE1 = CpuSet.range(4, 7);
  private static final CpuSet NODE2 = CpuSet.range(8, 11);
  private static final CpuSet NODE3 = CpuSet.range(12, 15);

  private final Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");

  @Test
  void fourCpuContainersGetAWholeIdleNumaNodeEach() {
    h.guaranteed("pod0", 1, 4000, 100 * MB);
    h.guaranteed("pod1", 1, 4000, 100 * MB);
    h.guaranteed("pod2", 1, 4000, 100 * MB);
    assertEquals(NODE1, h.cpus("pod0c0"));
    assertEquals(CpuSet.of(1), h.mems("pod0c0"));
    assertEquals(NODE2, h.cpus("pod1c0"));
    assertEquals(CpuSet.of(2), h.mems("pod1c0"));
    assertEquals(NODE3, h.cpus("pod2c0"));
    assertEquals(CpuSet.of(3), h.mems("pod2c0"));
  }

  @Test
  void aFourthFourCpuContainerIsRefusedAsOnlyThreeSharedCpusAreLeft() {
    for (String pod : new String[] {"pod0", "pod1", "pod2"}) {
      h.guaranteed(pod, 1, 4000, 100 * MB);
    }
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod3", 1, 4000, 100 * MB));
    assertTrue(
        e.getMessage()
            .contains(
                "no pool has room for it; the root has 3000m of shared CPU left on CPUs 1-3 (a"
                    + " pool whose shared CPUs containers use keeps at least one of them)"),
        e.getMessage());
  }

  @Test
  void aBusyNumaNodeKeepsASharedCpuAndGetsItsCpusBack() {
    h.create("default", "be", 1, Resources.NONE);
    assertEquals(NODE1, h.cpus("bec0"));
    h.guaranteed("pod1", 1, 4000, 100 * MB);
    h.guaranteed("pod2", 1, 4000, 100 * MB);
    assertEquals(NODE2, h.cpus("pod1c0"));
    assertEquals(NODE3, h.cpus("pod2c0"));
    assertEquals(NODE1, h.cpus("bec0"));
    // 5 CPUs fit only in socket #0 (cpus 1-7), where node #1 keeps one for the BestEffort container
    h.guaranteed("pod3", 1, 5000, 100 * MB);
    assertTrue(CpuSet.range(1, 7).containsAll(h.cpus("pod3c0")), h.cpus("pod3c0").toString());
    assertEquals(5, h.cpus("pod3c0").size());
    CpuSet be = h.cpus("bec0");
    assertFalse(be.isEmpty());
    assertTrue(NODE1.containsAll(be), be.toString());
    assertFalse(be.intersects(h.cpus("pod3c0")), be + " vs " + h.cpus("pod3c0"));
    assertEquals(CpuSet.of(1), h.mems("bec0"));
    // a sixth CPU would take node #1's last one
    assertThrows(PolicyException.class, () -> h.guaranteed("pod4", 1, 2000, 100 * MB));
    h.delete("pod1");
    h.delete("pod2");
    h.delete("pod3");
    assertEquals(NODE1, h.cpus("bec0"));
  }

  @Test
  void aSocketGrantLeavesABusyNumaNodeASharedCpu() {
    h.create("default", "be", 1, Resources.NONE);
    h.guaranteed("pod1", 1, 7000, 100 * MB); // socket #1
    assertTrue(CpuSet.range(8, 15).containsAll(h.cpus("pod1c0")), h.cpus("pod1c0").toString());
    h.guaranteed("pod2", 1, 6000, 100 * MB); // socket #0: CPUs 1-7, node #1 busy
    assertTrue(CpuSet.range(1, 7).containsAll(h.cpus("pod2c0")), h.cpus("pod2c0").toString());
    CpuSet be = h.cpus("bec0");
    assertFalse(be.isEmpty());
    assertTrue(NODE1.containsAll(be), be.toString());
    assertFalse(be.intersects(h.cpus("pod2c0")), be + " vs " + h.cpus("pod2c0"));
    assertEquals(CpuSet.of(1), h.mems("bec0"));
  }

  @Test
  void aBestEffortContainerIsRefusedWhenExclusiveGrantsHoldEverySharedCpu() {
    for (String pod : new String[] {"pod0", "pod1", "pod2"}) {
      h.guaranteed(pod, 1, 4000, 100 * MB);
    }
    h.guaranteed("pod3", 1, 3000, 100 * MB);
    assertEquals(CpuSet.range(1, 3), h.cpus("pod3c0"));
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.create("default", "be", 1, Resources.NONE));
    assertTrue(
        e.getMessage().contains("the root has 0m of shared CPU left (a pool whose"),
        e.getMessage());
    assertTrue(
        e.getCause().getMessage().contains("no shared CPU is left in"), e.getCause().getMessage());
    h.delete("pod1");
    h.create("default", "be", 1, Resources.NONE);
    assertEquals(NODE2, h.cpus("bec0"));
  }
}
