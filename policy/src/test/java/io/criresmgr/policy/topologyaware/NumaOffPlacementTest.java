package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Placement on {@code numaoff}: 2 sockets of 8 CPUs (cpu0-7, cpu8-15) and NUMA disabled in
 * firmware, so one node 0 with every CPU and 8 GiB; reserved {@code 750m} (cpu0).
 */
class NumaOffPlacementTest {
  private final Harness h =
      new Harness(TopologySpec.builtIn("numaoff").topology(), Map.of(), "750m");

  @Test
  void exclusiveContainersStayWithinOneSocketWithMemoryOfNodeZero() {
    h.guaranteed("pod0", 4, 3000, 100 * MB);
    for (int i = 0; i < 4; i++) {
      String c = "pod0c" + i;
      assertEquals(3, h.cpus(c).size(), c);
      assertEquals(1, h.packages(c).size(), c);
      assertEquals(CpuSet.of(0), h.mems(c), c);
    }
    h.assertDisjoint("pod0c0", "pod0c1", "pod0c2", "pod0c3");
    assertEquals(Set.of(0, 1), union(h.packages("pod0c0"), h.packages("pod0c1")));
  }

  @Test
  void sharedContainersUseASocketsSharedCpus() {
    h.guaranteed("g", 1, 2000, 100 * MB);
    h.create("default", "b", 2, new Resources(500, 1000, 50 * MB, 100 * MB));
    h.create("default", "e", 1, Resources.NONE);
    for (String c : new String[] {"bc0", "bc1", "ec0"}) {
      assertEquals(1, h.packages(c).size(), c);
      assertTrue(h.cpus(c).size() >= 6, c + ": " + h.cpus(c));
      assertTrue(h.cpus(c).intersection(h.cpus("gc0")).isEmpty(), c);
      assertEquals(CpuSet.of(0), h.mems(c), c);
    }
  }

  @Test
  void containersLargerThanASocketSpanBothWithMemoryOfNodeZero() {
    h.guaranteed("big", 1, 10000, 100 * MB);
    assertEquals(10, h.cpus("bigc0").size());
    assertEquals(Set.of(0, 1), h.packages("bigc0"));
    assertEquals(CpuSet.of(0), h.mems("bigc0"));
  }

  private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
    Set<Integer> out = new java.util.TreeSet<>(a);
    out.addAll(b);
    return out;
  }
}
