package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The L2 cache level of the CPU tree, through the policy (docs/policy/balloons.md). */
class BalloonsL2CacheTest {
  private static final Map<String, String> APP =
      Map.of("balloon.balloons.resource-policy.nri.io", "app");

  /** One NUMA node, 8 cores x 2 threads, 2 cores per L2 cache: 0-3, 4-7, 8-11, 12-15. */
  private static final SystemTopology ONE_NODE =
      TopologySpec.parse("[{mem: 1G, cores: 8, threads: 2, l2-cores: 2}]").topology();

  /** Two NUMA nodes of 4 cores x 2 threads, 2 cores per L2 cache: 0-3, 4-7 | 8-11, 12-15. */
  private static final SystemTopology TWO_NODES =
      TopologySpec.parse("[{mem: 1G, cores: 4, threads: 2, nodes: 2, l2-cores: 2}]").topology();

  @Test
  void balancedBalloonsTakeL2CachesOfTheirOwnAndFillThemWhenGrowing() throws Exception {
    PolicyHarness h =
        new PolicyHarness(
            ONE_NODE,
            """
            AllocatorTopologyBalancing: true
            BalloonTypes:
              - Name: app
                MaxCPUs: 8
                PreferNewBalloons: true
            """,
            CpuSet.of(0));
    h.allocate("pa", "c0", 2000, APP);
    h.allocate("pb", "c0", 2000, APP);
    h.allocate("pa", "c1", 2000, APP);
    CpuSet a = h.balloon("app[0]").cpus();
    CpuSet b = h.balloon("app[1]").cpus();
    // app[0] grew into the rest of its L2 cache; no balloon shares an L2 cache with another
    assertEquals(4, a.size());
    assertEquals(a, l2(ONE_NODE, a));
    assertEquals(2, b.size());
    assertNotEquals(l2(ONE_NODE, a), l2(ONE_NODE, b));
    assertTrue(!l2(ONE_NODE, a).contains(0) && !l2(ONE_NODE, b).contains(0), a + " " + b);
    assertEquals(CpuSet.range(8, 11), a);
    assertEquals(CpuSet.of(12, 13), b);
  }

  @Test
  void aGrowingBalloonFillsItsL2CacheBeforeTakingAnother() throws Exception {
    PolicyHarness h =
        new PolicyHarness(
            TWO_NODES,
            """
            BalloonTypes:
              - Name: app
                MaxCPUs: 4
            """,
            CpuSet.of(15));
    for (String c : new String[] {"c0", "c1", "c2"}) {
      h.allocate("pa", c, 1000, APP);
    }
    CpuSet a = h.balloon("app[0]").cpus();
    // packing starts next to the reserved CPU 15, then takes the other CPUs of its L2 cache
    // (12-15) rather than a core of another L2 cache of the node
    assertEquals(CpuSet.range(12, 14), a);
    h.allocate("pa", "c3", 1000, APP);
    CpuSet grown = h.balloon("app[0]").cpus();
    assertEquals(4, grown.size());
    assertEquals(CpuSet.range(8, 11), l2(TWO_NODES, grown.difference(a)));
  }

  /** The CPUs of the L2 caches holding any of {@code cpus}. */
  private static CpuSet l2(SystemTopology t, CpuSet cpus) {
    CpuSet out = CpuSet.EMPTY;
    for (CpuSet group : t.cacheGroups(2)) {
      if (group.intersects(cpus)) {
        out = out.union(group);
      }
    }
    return out;
  }
}
