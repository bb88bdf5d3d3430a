package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * More of the reference's balloons e2e scenarios ({@code test/e2e/policies.test-suite/balloons})
 * through the policy: test08, test09, test10 on n4c16 and test01 on n4c32.
 */
class BalloonsReferenceMoreTest extends BalloonsReviewFixture {
  @Test
  void test08Numa() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: fit-in-numa, Namespaces: ["*"], MinCPUs: 0, MaxCPUs: 4,
                 AllocatorPriority: 0, PreferNewBalloons: false}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(1));
    allocate(p, "default", "pod0", "", "pod0c0", 0);
    assertEquals(1, cpus("pod0", "pod0c0").size());
    for (int i = 1; i <= 4; i++) {
      allocate(p, "default", "pod" + i, "", "pod" + i + "c0", 1000);
      for (int j = 0; j <= i; j++) {
        assertEquals(Math.max(1, i), cpus("pod" + j, "pod" + j + "c0").size(), "pod" + j);
        assertEquals(cpus("pod0", "pod0c0"), cpus("pod" + j, "pod" + j + "c0"));
      }
    }
    allocate(p, "default", "pod5", "", "pod5c0", 0); // a 0-request container fits the full balloon
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod5", "pod5c0"));
    allocate(p, "default", "pod6", "", "pod6c0", 1000);
    assertEquals(1, cpus("pod6", "pod6c0").size());
    assertEquals(4, cpus("pod0", "pod0c0").size());
    assertDisjoint(cpus("pod0", "pod0c0"), cpus("pod6", "pod6c0"));
    releaseAll(p, "pod1c0", "pod2c0", "pod3c0");
    for (String pod : new String[] {"pod0", "pod4", "pod5", "pod6"}) {
      assertEquals(1, cpus(pod, pod + "c0").size(), pod);
    }
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod4", "pod4c0"));
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod5", "pod5c0"));
    assertDisjoint(cpus("pod0", "pod0c0"), cpus("pod6", "pod6c0"));
    release(p, "pod4", "pod4c0"); // only BestEffort containers left: the balloon keeps 1 CPU
    assertEquals(1, cpus("pod0", "pod0c0").size());
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod5", "pod5c0"));
    assertDisjoint(cpus("pod0", "pod0c0"), cpus("pod6", "pod6c0"));
  }

  @Test
  void test09EmptyMinBalloonsAreUsedBeforeNewOnes() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: isolated-pods, MinCPUs: 0, MaxCPUs: 2, MinBalloons: 2,
                 PreferNewBalloons: true, PreferSpreadingPods: false}
              - {Name: isolated-ctrs, MinCPUs: 1, MaxCPUs: 1, MinBalloons: 2,
                 PreferNewBalloons: true, PreferSpreadingPods: true}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(0));
    fixture.pod("default", "pod0", Map.of(ANNOTATION, "isolated-pods"));
    fixture.pod("default", "pod1", Map.of(ANNOTATION, "isolated-pods"));
    fixture.pod("default", "pod2", Map.of(ANNOTATION, "isolated-pods"));
    fixture.pod("default", "pod3", Map.of(ANNOTATION, "isolated-ctrs"));
    pair(p, "default", "pod0", 0);
    assertEquals(1, cpus("pod0", "pod0c0").size());
    pair(p, "default", "pod1", 600);
    assertEquals(2, cpus("pod1", "pod1c0").size());
    Decisions d = fixture.allocate(p, "default", "pod2", "pod2c0", 100);
    assertTrue(balloons(d).contains("isolated-pods[2]"), balloons(d)); // new preferred
    fixture.allocate(p, "default", "pod2", "pod2c1", 100);
    assertEquals(cpus("pod2", "pod2c0"), cpus("pod2", "pod2c1"));
    for (int i = 0; i < 4; i++) {
      d = fixture.allocate(p, "default", "pod3", "pod3c" + i, 0);
    }
    assertDisjoint(
        cpus("pod0", "pod0c0"),
        cpus("pod1", "pod1c0"),
        cpus("pod2", "pod2c0"),
        cpus("pod3", "pod3c0"),
        cpus("pod3", "pod3c1"),
        cpus("pod3", "pod3c2"),
        cpus("pod3", "pod3c3"));
    assertTrue(balloons(d).contains("isolated-ctrs[3]"), balloons(d));
    assertFalse(balloons(d).contains("isolated-pods[3]"), balloons(d));
  }

  @Test
  void test10AllocatorOptions() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            AllocatorTopologyBalancing: true
            PreferSpreadOnPhysicalCores: true
            BalloonTypes:
              - {Name: policydefaults, MinCPUs: 2, MinBalloons: 2}
              - {Name: topo1cores0, MinCPUs: 2, MinBalloons: 2, PreferSpreadOnPhysicalCores: false}
              - {Name: topo0cores1, AllocatorTopologyBalancing: false,
                 PreferSpreadOnPhysicalCores: true}
              - {Name: topo0cores0, AllocatorTopologyBalancing: false,
                 PreferSpreadOnPhysicalCores: false}
              - {Name: topo1cores1, AllocatorTopologyBalancing: true,
                 PreferSpreadOnPhysicalCores: true}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(1));
    allocate(p, "default", "pod0", "policydefaults", "pod0c0", 100);
    assertEquals(2, cpus("pod0", "pod0c0").size());
    assertEquals(2, cores(N4C16, cpus("pod0", "pod0c0")).size());
    allocate(p, "default", "pod1", "topo1cores0", "pod1c0", 100);
    assertEquals(2, cpus("pod1", "pod1c0").size());
    assertEquals(1, cores(N4C16, cpus("pod1", "pod1c0")).size());
    pairOf(p, "pod2", "topo1cores1", 1000);
    assertEquals(2, cpus("pod2", "pod2c0").size());
    assertEquals(2, cores(N4C16, cpus("pod2", "pod2c0")).size());
    pairOf(p, "pod3", "topo0cores0", 1000);
    assertEquals(2, cpus("pod3", "pod3c0").size());
    assertEquals(1, cores(N4C16, cpus("pod3", "pod3c0")).size());
  }

  @Test
  void n4c32Test01DynamicBalloonsSpreadOverNumaNodes() throws Exception {
    SystemTopology n4c32 = TopologySpec.builtIn("n4c32").topology();
    BalloonsPolicy p =
        new BalloonsPolicy(
            "balloons",
            n4c32,
            parse(
                """
                AllocatorTopologyBalancing: true
                BalloonTypes:
                  - {Name: dynamic, MaxCPUs: 32, MaxBalloons: 8, PreferNewBalloons: true,
                     ShareIdleCpusInSame: numa}
                """),
            n4c32.onlineCpus(),
            CpuSet.of(31));
    java.util.Set<Integer> nodes = new java.util.HashSet<>();
    for (int k = 0; k < 8; k++) {
      String pod = "pod" + k;
      fixture.pod("default", pod, Map.of(ANNOTATION, "dynamic"));
      for (int i = 0; i < 3; i++) {
        fixture.apply(
            p.allocate(
                fixture.create("default", pod, pod + "c" + i + "-init", 100, true), node.cache()));
      }
      fixture.allocate(p, "default", pod, pod + "c0", 3000);
      CpuSet cpus = cpus(pod, pod + "c0");
      List<Integer> own = n4c32.cpuNodes(cpus.intersection(ownCpus(p, pod)));
      assertEquals(1, own.size(), pod + " " + cpus);
      assertTrue(nodes.add(own.get(0)), pod + " shares NUMA node " + own);
    }
    // every balloon shares the idle CPU of its NUMA node but the one next to the reserved CPU
    List<Integer> allowed = new java.util.ArrayList<>();
    for (int k = 0; k < 8; k++) {
      allowed.add(cpus("pod" + k, "pod" + k + "c0").size());
    }
    assertEquals(List.of(1, 7), List.of(countOf(allowed, 3), countOf(allowed, 4)), "" + allowed);
    String all = balloons(p.rebalance(node.cache()));
    assertFalse(all.contains("init"), all);
    // pod8: MaxBalloons reached, dynamic[0] inflates from 3 to 5 CPUs within one die
    fixture.pod("default", "pod8", Map.of(ANNOTATION, "dynamic"));
    fixture.allocate(p, "default", "pod8", "pod8c0", 2000);
    CpuSet grown = ownCpus(p, "pod8");
    assertEquals(5, grown.size());
    assertEquals(2, n4c32.cpuNodes(grown).size());
    assertEquals(
        1,
        grown.stream()
            .mapToObj(id -> n4c32.cpu(id).packageId() + "/" + n4c32.cpu(id).dieId())
            .distinct()
            .count());
  }
}
