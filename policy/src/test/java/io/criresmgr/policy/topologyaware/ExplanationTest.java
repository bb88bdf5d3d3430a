package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.PolicyException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Why topology-aware put a container in its pool, and why it refused one, on {@code n4c16}. */
class ExplanationTest {
  private static Harness n4c16() {
    return new Harness(Topologies.n4c16(), Map.of(), "750m");
  }

  private static List<String> why(Harness h, String container) {
    return h.last.explanations().get(h.byName(container).cacheId()).lines();
  }

  @Test
  void exclusiveContainersGoToTheLeafWithMostSharedCapacityLeft() {
    Harness h = n4c16();
    h.guaranteed("pod0", 1, 2000, 100 * MB);
    assertEquals(
        List.of(
            "pool NUMA node #1: more shared capacity (runner-up NUMA node #2)",
            "  NUMA node #1: shared 2000m left, 0 containers: chosen",
            "  NUMA node #2: shared 2000m left, 0 containers: lost: more shared capacity",
            "  NUMA node #3: shared 2000m left, 0 containers: lost: more shared capacity",
            "  NUMA node #0: shared 1000m left, 0 containers: lost: more shared capacity",
            "  socket #1: shared 6000m left, 0 containers: lost: deeper pool"),
        why(h, "pod0c0"));
    h.guaranteed("pod1", 1, 2000, 100 * MB);
    assertEquals(
        List.of(
            "pool NUMA node #2: more shared capacity (runner-up NUMA node #3)",
            "  NUMA node #2: shared 2000m left, 0 containers: chosen",
            "  NUMA node #3: shared 2000m left, 0 containers: lost: more shared capacity",
            "  NUMA node #0: shared 1000m left, 0 containers: lost: more shared capacity",
            "  NUMA node #1: shared 0m left, 1 containers: lost: more shared capacity",
            "  socket #1: shared 6000m left, 0 containers: lost: deeper pool"),
        why(h, "pod1c0"));
  }

  @Test
  void aBurstableContainerExplainsItsPool() {
    Harness h = n4c16();
    h.create("default", "pod0", 1, new Resources(500, 1000, 100 * MB, 200 * MB));
    assertEquals(
        List.of(
            "pool NUMA node #1: lower pool id (runner-up NUMA node #2)",
            "  NUMA node #1: shared 3500m left, 0 containers: chosen",
            "  NUMA node #2: shared 3500m left, 0 containers: lost: lower pool id",
            "  NUMA node #3: shared 3500m left, 0 containers: lost: lower pool id",
            "  NUMA node #0: shared 2500m left, 0 containers: lost: more shared capacity",
            "  socket #1: shared 7500m left, 0 containers: lost: deeper pool"),
        why(h, "pod0c0"));
  }

  @Test
  void kubeSystemGetsTheRootsReservedCpusWithoutScoring() {
    Harness h = n4c16();
    h.create("kube-system", "pod0", 1, new Resources(100, 0, 0, 0));
    assertEquals(List.of("pool root: reserved CPUs are the root's"), why(h, "pod0c0"));
  }

  @Test
  void aRefusalNamesTheClosestPoolAndWhatItLacked() {
    Harness h = n4c16();
    h.guaranteed("pod0", 1, 6000, 100 * MB);
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod1", 1, 12000, 100 * MB));
    assertTrue(e.getMessage().startsWith("topology-aware: cannot allocate"), e.getMessage());
    Explanation why = e.why().orElseThrow();
    assertEquals(
        List.of(
            "refused: no pool has room for 12 exclusive CPUs, memory 95.37M (dram,pmem,hbm); closest pool root lacks 3000m of shared CPU",
            "  root: shared -3000m left, 0 containers: no room: lacks 3000m of shared CPU",
            "  NUMA node #1: shared -8000m left, 0 containers: no room: lacks 8000m of shared CPU",
            "  NUMA node #0: shared -9000m left, 0 containers: no room: lacks 9000m of shared CPU",
            "  NUMA node #3: shared -10000m left, 0 containers: no room: lacks 10000m of shared CPU",
            "  NUMA node #2: shared -12000m left, 0 containers: no room: lacks 12000m of shared CPU"),
        why.lines());
  }

  @Test
  void memoryThatFitsNoPoolIsExplained() {
    Harness h = n4c16();
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod0", 1, 1000, 100_000 * MB));
    assertEquals(
        List.of(
            "refused: no pool has enough memory for 1 exclusive CPUs, memory 93.13G"
                + " (dram,pmem,hbm) (root: DRAM 8.00G free)"),
        e.why().orElseThrow().lines());
  }
}
