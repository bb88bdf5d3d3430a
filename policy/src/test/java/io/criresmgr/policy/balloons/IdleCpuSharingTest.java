package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.sysfs.CpuCache;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class IdleCpuSharingTest {
  private static final SystemTopology N4C16 =
      TopologySpec.builtIn("n4c16").withIsolated(CpuSet.of(3, 9)).topology();
  private static final SystemTopology N4C32 = TopologySpec.builtIn("n4c32").topology();
  private static final Map<String, String> DYNAMIC =
      Map.of("balloon.balloons.cri-resource-manager.intel.com", "dynamic");

  /** cri-resmgr's balloons e2e test n4c32/test01-dynamic-baloons, balloons-dynamic.cfg. */
  private static final String DYNAMIC_CFG =
      """
      AllocatorTopologyBalancing: true
      BalloonTypes:
        - Name: dynamic
          MaxCPUs: 32
          MaxBalloons: 8
          PreferNewBalloons: true
          ShareIdleCpusInSame: numa
      """;

  private final IdleCpuSharing n4c16 = new IdleCpuSharing(N4C16);

  @Test
  void eachLevelSharesTheIdleCpusOfItsElementsButNeverIsolatedOnes() {
    CpuSet idle = CpuSet.parse("0-15").difference(CpuSet.parse("0,3-4,9,15"));
    CpuSet cpus = CpuSet.of(0);
    assertEquals(CpuSet.EMPTY, n4c16.shared(null, cpus, idle));
    assertEquals(CpuSet.EMPTY, n4c16.shared(ShareLevel.THREAD, cpus, idle));
    assertEquals(CpuSet.of(1), n4c16.shared(ShareLevel.CORE, cpus, idle));
    assertEquals(CpuSet.of(1, 2), n4c16.shared(ShareLevel.NUMA, cpus, idle));
    assertEquals(CpuSet.parse("1-2,5-7"), n4c16.shared(ShareLevel.DIE, cpus, idle));
    assertEquals(CpuSet.parse("1-2,5-7"), n4c16.shared(ShareLevel.PACKAGE, cpus, idle));
    assertEquals(CpuSet.parse("1-2,5-8,10-14"), n4c16.shared(ShareLevel.SYSTEM, cpus, idle));
    // a balloon in two NUMA nodes shares the idle CPUs of both
    assertEquals(CpuSet.parse("1-2,10-11"), n4c16.shared(ShareLevel.NUMA, CpuSet.of(0, 8), idle));
  }

  @Test
  void l2cacheSharesTheIdleCpusOfTheBalloonsL2CachesElseOfItsCores() {
    SystemTopology laptop = TopologySpec.builtIn("laptop").topology();
    CpuSet idle = CpuSet.range(1, 7);
    // the spec gives every core its own L2 cache: the same as core
    assertEquals(
        CpuSet.of(1), new IdleCpuSharing(laptop).shared(ShareLevel.L2CACHE, CpuSet.of(0), idle));
    // two cores per L2 cache (as E-core clusters share one)
    SystemTopology clustered =
        new SystemTopology(
            laptop.cpus(),
            laptop.nodes(),
            laptop.presentCpus(),
            CpuSet.EMPTY,
            List.of(
                new CpuCache(2, CpuCache.Type.UNIFIED, CpuSet.range(0, 3)),
                new CpuCache(2, CpuCache.Type.UNIFIED, CpuSet.range(4, 7))));
    IdleCpuSharing sharing = new IdleCpuSharing(clustered);
    assertEquals(CpuSet.range(1, 3), sharing.shared(ShareLevel.L2CACHE, CpuSet.of(0), idle));
    assertEquals(
        CpuSet.parse("1-3,5-7"), sharing.shared(ShareLevel.L2CACHE, CpuSet.of(0, 4), idle));
    // no caches known: the core
    SystemTopology unknown =
        new SystemTopology(laptop.cpus(), laptop.nodes(), laptop.presentCpus(), CpuSet.EMPTY);
    assertEquals(
        CpuSet.of(1), new IdleCpuSharing(unknown).shared(ShareLevel.L2CACHE, CpuSet.of(0), idle));
  }

  @Test
  void l2cacheIsAnAcceptedShareIdleCpusInSameValue() throws Exception {
    SystemTopology plain = TopologySpec.builtIn("n4c16").topology();
    PolicyHarness h =
        new PolicyHarness(
            plain,
            """
            BalloonTypes:
              - Name: l2
                MinCPUs: 1
                MinBalloons: 1
                ShareIdleCPUsInSame: l2cache
            """,
            CpuSet.parse("0-15"),
            CpuSet.of(14, 15));
    h.allocate("pa", "c0", 100, Map.of("balloon.balloons.resource-policy.nri.io", "l2"));
    Balloon l2 = h.balloon("l2[0]");
    assertEquals(1, l2.cpus().size());
    CpuSet core = plain.coreCpus(l2.cpus().stream().findFirst().orElseThrow());
    assertEquals(2, core.size());
    assertEquals(core, h.assignment("pa", "c0").cpus());
  }

  @Test
  void idleCpusAreAllowedFreeAndNotIsolated() throws Exception {
    PolicyHarness h =
        new PolicyHarness(
            N4C16,
            """
            BalloonTypes:
              - Name: numa
                MinCPUs: 1
                MinBalloons: 1
                ShareIdleCPUsInSame: numa
            """,
            CpuSet.parse("0-14"),
            CpuSet.of(0));
    h.allocate("pa", "c0", 100, Map.of("balloon.balloons.resource-policy.nri.io", "numa"));
    BalloonSet set = h.set();
    Balloon numa = h.balloon("numa[0]");
    assertEquals(CpuSet.parse("1-2,4-8,10-14").difference(numa.cpus()), n4c16.idle(set));
    CpuSet expected =
        N4C16
            .node(N4C16.cpu(numa.cpus().stream().findFirst().orElseThrow()).nodeId())
            .cpus()
            .intersection(n4c16.idle(set));
    assertEquals(expected, n4c16.sharedIdle(numa, set));
    assertEquals(numa.cpus().union(expected), h.assignment("pa", "c0").cpus());
    assertEquals(CpuSet.EMPTY, n4c16.sharedIdle(h.balloon("reserved[0]"), set));
  }

  @Test
  void n4c32DynamicBalloonsShareTheIdleCpuOfTheirNumaNode() throws Exception {
    PolicyHarness h = new PolicyHarness(N4C32, DYNAMIC_CFG, CpuSet.of(31));
    for (int i = 0; i < 8; i++) {
      h.allocate("pod" + i, "pod" + i + "c0", 3000, DYNAMIC);
    }
    assertEquals(8, h.balloons().stream().filter(b -> b.type().equals("dynamic")).count());
    assertEquals(Map.of(3, 8), counts(h, "cpus"));
    assertEquals(Map.of(0, 1, 1, 7), counts(h, "shared"));
    assertEquals(Map.of(3, 1, 4, 7), counts(h, "allowed"));
    Set<Integer> nodes = new HashSet<>();
    for (int i = 0; i < 8; i++) {
      List<Integer> own = N4C32.cpuNodes(h.assignment("pod" + i, "pod" + i + "c0").cpus());
      assertEquals(1, own.size(), "pod" + i + " on " + own);
      assertTrue(nodes.addAll(own), "NUMA nodes of pod" + i + " are not disjoint: " + own);
    }
  }

  @Test
  void n4c32AnInflatedBalloonTakesIdleCpusAndOthersAreRepinned() throws Exception {
    PolicyHarness h = new PolicyHarness(N4C32, DYNAMIC_CFG, CpuSet.of(31));
    for (int i = 0; i < 8; i++) {
      h.allocate("pod" + i, "pod" + i + "c0", 3000, DYNAMIC);
    }
    Decisions d = h.allocate("pod8", "pod8c0", 2000, DYNAMIC);
    assertEquals(Map.of(3, 7, 5, 1), counts(h, "cpus"));
    assertEquals(Map.of(0, 3, 1, 5), counts(h, "shared"));
    CpuSet pod8 = h.assignment("pod8", "pod8c0").cpus();
    assertEquals(5, pod8.size());
    assertEquals(2, N4C32.cpuNodes(pod8).size());
    assertEquals(1, dies(pod8).size());
    // the subject, its balloon-mate, and the neighbour that lost its shared idle CPU
    assertEquals(
        List.of(3, 5, 5),
        d.updates().stream().map(u -> u.assignment().cpus().size()).sorted().toList());
    h.release("pod8", "pod8c0");
    assertEquals(Map.of(3, 8), counts(h, "cpus"));
  }

  @Test
  void n4c32WithNoFreeCpusLeftNothingIsShared() throws Exception {
    PolicyHarness h = new PolicyHarness(N4C32, DYNAMIC_CFG, CpuSet.of(31));
    for (int i = 0; i < 8; i++) {
      h.allocate("pod" + i, "pod" + i + "c0", 3000, DYNAMIC);
    }
    h.allocate("pod10", "pod10c0", 6000, DYNAMIC);
    h.allocate("pod10", "pod10c1", 1000, DYNAMIC);
    assertEquals(7, N4C32.cpuNodes(h.assignment("pod10", "pod10c0").cpus()).size());
    assertEquals(4, dies(h.assignment("pod10", "pod10c0").cpus()).size());
    assertEquals(Map.of(0, 8), counts(h, "shared"));
    h.release("pod10", "pod10c0");
    h.release("pod10", "pod10c1");
    h.release("pod0", "pod0c0");
    assertTrue(counts(h, "shared").containsKey(1), counts(h, "shared").toString());
  }

  /** How many dynamic balloons have how many CPUs, shared idle CPUs or CPUs allowed. */
  private Map<Integer, Integer> counts(PolicyHarness h, String what) {
    IdleCpuSharing sharing = new IdleCpuSharing(N4C32);
    BalloonSet set = h.set();
    Map<Integer, Integer> out = new TreeMap<>();
    for (Balloon b : set.ofType("dynamic")) {
      CpuSet shared = sharing.sharedIdle(b, set);
      int n =
          switch (what) {
            case "cpus" -> b.cpus().size();
            case "shared" -> shared.size();
            default -> b.cpus().union(shared).size();
          };
      out.merge(n, 1, Integer::sum);
      for (String c : b.containers().keySet()) {
        assertEquals(b.cpus().union(shared), h.node.container(c).assignment().cpus(), b.name());
      }
    }
    return out;
  }

  private static Set<String> dies(CpuSet cpus) {
    return cpus.stream()
        .mapToObj(N4C32::cpu)
        .map(c -> c.packageId() + "/" + c.dieId())
        .collect(Collectors.toSet());
  }
}
