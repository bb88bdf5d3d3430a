package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pools per L3 cache on {@code epyc}: 2 sockets, 2 NUMA nodes each (NPS2) of 8 cores × 2 threads
 * and 4 GiB, an L3 cache per 4 cores (CCX): cpu0-7, cpu8-15, ..., cpu56-63.
 */
class L3CachePoolsTest {
  private static final SystemTopology EPYC = TopologySpec.builtIn("epyc").topology();

  private static List<String> names(PoolTree tree) {
    return tree.pools().stream().map(Pool::name).toList();
  }

  @Test
  void eachNumaNodeSplitsIntoItsL3Caches() {
    PoolTree tree = PoolTreeBuilder.build(EPYC, CpuSet.range(0, 63), CpuSet.EMPTY);
    assertEquals(
        List.of(
            "L3 cache #0",
            "L3 cache #1",
            "NUMA node #0",
            "L3 cache #2",
            "L3 cache #3",
            "NUMA node #1",
            "socket #0",
            "L3 cache #4",
            "L3 cache #5",
            "NUMA node #2",
            "L3 cache #6",
            "L3 cache #7",
            "NUMA node #3",
            "socket #1",
            "root"),
        names(tree));
    Pool l3 = tree.pool("L3 cache #3").orElseThrow();
    assertEquals(PoolKind.L3_CACHE, l3.kind());
    assertEquals(CpuSet.range(24, 31), l3.sharable());
    assertEquals(CpuSet.of(1), l3.memset());
    assertEquals(2 * Topologies.GIB, l3.memory().dram());
    assertEquals(3, l3.depth());
    Pool numa1 = tree.pool("NUMA node #1").orElseThrow();
    assertEquals(4 * Topologies.GIB, numa1.memory().dram());
    assertEquals(CpuSet.range(16, 31), numa1.sharable());
  }

  @Test
  void anL3CacheCoveringTheNodeAddsNoLevel() {
    for (String name : TopologySpec.builtInNames()) {
      if (name.equals("epyc") || name.equals("s8c4096") || name.equals("n8c448")) {
        continue;
      }
      SystemTopology t = TopologySpec.builtIn(name).topology();
      PoolTree tree = PoolTreeBuilder.build(t, t.onlineCpus(), CpuSet.EMPTY);
      assertTrue(
          tree.pools().stream().noneMatch(p -> p.kind() == PoolKind.L3_CACHE),
          name + ": " + names(tree));
    }
  }

  @Test
  void reservedCpusOutsideTheAllowedOnesLeaveOneL3AndNoSplit() {
    PoolTree tree = PoolTreeBuilder.build(EPYC, CpuSet.range(0, 7), CpuSet.of(0));
    assertTrue(
        tree.pools().stream().noneMatch(p -> p.kind() == PoolKind.L3_CACHE),
        names(tree).toString());
  }

  @Test
  void exclusiveContainersFittingACcxLandInOne() {
    Harness h = new Harness(EPYC, Map.of(), "750m");
    h.guaranteed("a", 8, 6000, 100 * MB);
    List<CpuSet> l3s = EPYC.cacheGroups(3);
    java.util.Set<CpuSet> used = new java.util.HashSet<>();
    for (int i = 0; i < 8; i++) {
      CpuSet cpus = h.cpus("ac" + i);
      assertEquals(6, cpus.size(), "ac" + i);
      CpuSet l3 = l3s.stream().filter(g -> g.containsAll(cpus)).findFirst().orElse(null);
      assertTrue(l3 != null, "ac" + i + " spans L3 caches: " + cpus);
      used.add(l3);
    }
    assertEquals(8, used.size());
    h.assertDisjoint("ac0", "ac1", "ac2", "ac3", "ac4", "ac5", "ac6", "ac7");
  }

  @Test
  void sharedContainersUseTheSharedCpusOfOneL3Cache() {
    Harness h = new Harness(EPYC, Map.of(), "750m");
    h.create("default", "s", 1, Harness.resources(500, 1000, 50 * MB, 100 * MB));
    CpuSet cpus = h.cpus("sc0");
    assertTrue(cpus.size() >= 7, cpus.toString());
    assertTrue(EPYC.cacheGroups(3).stream().anyMatch(l3 -> l3.containsAll(cpus)), cpus.toString());
  }
}
