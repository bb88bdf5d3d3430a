package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Review of the balloons policy: contract edge cases, fill-chain tie-breaks and the reference
 * scenarios (§12.3) worked through the policy directly on n4c16 (2 packages, 4 NUMA nodes of 4
 * CPUs, 2 threads per core).
 */
class BalloonsReviewTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final String ANNOTATION = "balloon.balloons.cri-resource-manager.intel.com";

  private final BalloonsNode fixture = new BalloonsNode();
  private final FakeNode node = fixture.node;

  private static BalloonsPolicy policy(String yaml, CpuSet allowed, CpuSet reserved)
      throws Exception {
    return new BalloonsPolicy("balloons", N4C16, parse(yaml), allowed, reserved);
  }

  /** Allocates container {@code name} of pod {@code pod} in {@code ns} annotated {@code type}. */
  private Decisions allocate(
      BalloonsPolicy p, String ns, String pod, String type, String name, long milli) {
    fixture.pod(ns, pod, type.isEmpty() ? Map.of() : Map.of(ANNOTATION, type));
    return fixture.allocate(p, ns, pod, name, milli);
  }

  /** Releases a container as the pipeline does: no longer active, released, then removed. */
  private Decisions release(BalloonsPolicy p, String pod, String name) {
    String id = PolicyHarness.id(pod, name);
    node.setState(id, ContainerState.EXITED);
    Decisions d = fixture.apply(p.release(node.container(id), node.cache()));
    node.cache().removeContainer(id);
    return d;
  }

  private CpuSet cpus(String pod, String name) {
    return node.container(PolicyHarness.id(pod, name)).assignment().cpus();
  }

  private static void assertDisjoint(CpuSet... sets) {
    for (int a = 0; a < sets.length; a++) {
      for (int b = a + 1; b < sets.length; b++) {
        assertFalse(sets[a].intersects(sets[b]), sets[a] + " and " + sets[b] + " intersect");
      }
    }
  }

  private static final String SUITE =
      """
      BalloonTypes:
        - {Name: two-cpu, MinCPUs: 2, MaxCPUs: 2, AllocatorPriority: 0, CPUClass: class2,
           PreferNewBalloons: true}
        - {Name: three-cpu, Namespaces: ["three"], MinCPUs: 3, AllocatorPriority: 1,
           CPUClass: class3, PreferSpreadingPods: true}
        - {Name: four-cpu, MinCPUs: 4, MaxCPUs: 8, MinBalloons: 1, AllocatorPriority: 2,
           CPUClass: class4}
        - {Name: five-cpu, MaxCPUs: 5, AllocatorPriority: 3, PreferSpreadingPods: true,
           PreferNewBalloons: true, CPUClass: class5}
      """;

  @Test
  void test01BasicPlacement() throws Exception {
    BalloonsPolicy p = policy(SUITE, CpuSet.parse("1-15"), CpuSet.of(1));
    allocate(p, "kube-system", "pod0", "", "pod0c0", 1000);
    allocate(p, "kube-system", "pod0", "", "pod0c1", 1000);
    assertEquals(CpuSet.of(1), cpus("pod0", "pod0c0"));
    assertEquals(CpuSet.of(1), cpus("pod0", "pod0c1"));
    // 2: same-pod wins over PreferNewBalloons
    allocate(p, "default", "pod1", "two-cpu", "pod1c0", 100);
    allocate(p, "default", "pod1", "two-cpu", "pod1c1", 100);
    assertEquals(cpus("pod1", "pod1c0"), cpus("pod1", "pod1c1"));
    assertEquals(2, cpus("pod1", "pod1c0").size());
    // 3: a new balloon is preferred
    allocate(p, "default", "pod2", "two-cpu", "pod2c0", 100);
    assertEquals(2, cpus("pod2", "pod2c0").size());
    assertDisjoint(cpus("pod2", "pod2c0"), cpus("pod1", "pod1c0"));
    // 4: namespace three, spreading pods, MinCPUs 3
    allocate(p, "three", "pod3", "", "pod3c0", 1500);
    allocate(p, "three", "pod3", "", "pod3c1", 1500);
    assertEquals(cpus("pod3", "pod3c0"), cpus("pod3", "pod3c1"));
    assertEquals(3, cpus("pod3", "pod3c0").size());
    // 5: cleanup
    for (String[] c :
        new String[][] {
          {"pod0", "pod0c0"},
          {"pod0", "pod0c1"},
          {"pod1", "pod1c0"},
          {"pod1", "pod1c1"},
          {"pod2", "pod2c0"},
          {"pod3", "pod3c0"},
          {"pod3", "pod3c1"}
        }) {
      release(p, c[0], c[1]);
    }
    // 6: c0 and c1 inflate four-cpu[0] to 6, c2 does not fit under MaxCPUs 8
    allocate(p, "default", "pod4", "four-cpu", "pod4c0", 3000);
    allocate(p, "default", "pod4", "four-cpu", "pod4c1", 3000);
    allocate(p, "default", "pod4", "four-cpu", "pod4c2", 3000);
    assertEquals(cpus("pod4", "pod4c0"), cpus("pod4", "pod4c1"));
    assertEquals(6, cpus("pod4", "pod4c0").size());
    assertEquals(4, cpus("pod4", "pod4c2").size());
    assertDisjoint(cpus("pod4", "pod4c2"), cpus("pod4", "pod4c0"));
    release(p, "pod4", "pod4c0");
    release(p, "pod4", "pod4c1");
    release(p, "pod4", "pod4c2");
    // 7: spreading pods, new balloons preferred
    allocate(p, "default", "pod5", "five-cpu", "pod5c0", 1250);
    allocate(p, "default", "pod5", "five-cpu", "pod5c1", 1250);
    allocate(p, "default", "pod5", "five-cpu", "pod5c2", 1250);
    assertEquals(2, cpus("pod5", "pod5c0").size());
    assertEquals(2, cpus("pod5", "pod5c1").size());
    assertEquals(2, cpus("pod5", "pod5c2").size());
    assertDisjoint(cpus("pod5", "pod5c0"), cpus("pod5", "pod5c1"), cpus("pod5", "pod5c2"));
  }

  @Test
  void test03Reserved() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            IdleCPUClass: idle-class
            ReservedPoolNamespaces: ["monitor-*", "*-log*"]
            BalloonTypes:
              - {Name: reserved, Namespaces: [my-exact-name], CPUClass: reserved-class}
              - {Name: default, MinCPUs: 1}
              - {Name: full-core, MinCPUs: 2, MaxCPUs: 2, CPUClass: turbo, MinBalloons: 2}
            """,
            N4C16.onlineCpus(),
            CpuSet.parse("0-2"));
    CpuSet reserved = CpuSet.parse("0-2");
    allocate(p, "kube-system", "pod0", "", "pod0c0", 100);
    assertEquals(reserved, cpus("pod0", "pod0c0"));
    allocate(p, "monitor-mypods", "pod1", "", "pod1c0", 1000);
    allocate(p, "monitor-mypods", "pod1", "", "pod1c1", 1000);
    assertEquals(reserved, cpus("pod1", "pod1c0"));
    assertEquals(reserved, cpus("pod1", "pod1c1"));
    allocate(p, "system-logs", "pod2", "", "pod2c0", 1000); // reserved may be overbooked
    assertEquals(reserved, cpus("pod2", "pod2c0"));
    allocate(p, "kube-system", "pod3", "full-core", "pod3c0", 2000);
    assertEquals(2, cpus("pod3", "pod3c0").size());
    assertDisjoint(reserved, cpus("pod3", "pod3c0"));
    allocate(p, "default", "pod4", "", "pod4c0", 2500);
    assertEquals(3, cpus("pod4", "pod4c0").size());
    assertDisjoint(reserved, cpus("pod3", "pod3c0"), cpus("pod4", "pod4c0"));
    allocate(p, "default", "pod5", "reserved", "pod5c0", 2500);
    assertEquals(reserved, cpus("pod5", "pod5c0"));
    for (String[] c :
        new String[][] {
          {"pod0", "pod0c0"},
          {"pod1", "pod1c0"},
          {"pod1", "pod1c1"},
          {"pod2", "pod2c0"},
          {"pod3", "pod3c0"},
          {"pod4", "pod4c0"},
          {"pod5", "pod5c0"}
        }) {
      release(p, c[0], c[1]);
    }
    allocate(p, "default", "pod6", "", "pod6c0", 999); // deflated to MinCPUs 1, not popped
    assertEquals(1, cpus("pod6", "pod6c0").size());
    assertDisjoint(reserved, cpus("pod6", "pod6c0"));
    allocate(p, "kube-system", "pod7", "", "pod7c0", 100);
    assertEquals(reserved, cpus("pod7", "pod7c0"));
  }

  @Test
  void test07MaxBalloons() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: singleton, MinCPUs: 2, MaxCPUs: 2, MinBalloons: 1, MaxBalloons: 1}
              - {Name: dynamictwo, MaxCPUs: 1, MaxBalloons: 2}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(0));
    allocate(p, "default", "pod0", "singleton", "pod0c0", 1500);
    assertEquals(2, cpus("pod0", "pod0c0").size());
    allocate(p, "default", "pod1", "singleton", "pod1c0", 500);
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod1", "pod1c0"));
    PolicyException e =
        assertThrows(
            PolicyException.class, () -> allocate(p, "default", "pod2", "singleton", "c", 100));
    assertTrue(e.getMessage().startsWith("no suitable balloon instance available"), e.getMessage());
    node.cache().removeContainer(PolicyHarness.id("pod2", "c"));
    node.cache().removePod("sandbox-pod2");
    allocate(p, "default", "pod2", "dynamictwo", "pod2c0", 800);
    assertEquals(1, cpus("pod2", "pod2c0").size());
    allocate(p, "default", "pod3", "dynamictwo", "pod3c0", 600);
    assertDisjoint(cpus("pod2", "pod2c0"), cpus("pod3", "pod3c0"));
    allocate(p, "default", "pod4", "dynamictwo", "pod4c0", 300);
    assertEquals(cpus("pod3", "pod3c0"), cpus("pod4", "pod4c0"));
    e =
        assertThrows(
            PolicyException.class, () -> allocate(p, "default", "pod5", "dynamictwo", "c", 300));
    assertTrue(e.getMessage().startsWith("no suitable balloon instance available"), e.getMessage());
  }

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
    release(p, "pod1", "pod1c0");
    release(p, "pod2", "pod2c0");
    release(p, "pod3", "pod3c0");
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

  private static final String TWO_OF_ONE =
      """
      BalloonTypes:
        - {Name: w, Namespaces: [default], MinCPUs: 1, MaxCPUs: 1, MinBalloons: 2}
      """;

  @Test
  void balancedTieGoesToTheBalloonWithFewestContainers() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_ONE, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 0);
    Decisions d = allocate(p, "default", "pb", "", "c0", 0);
    // both balloons have 1000 mCPU free; w[1] holds no container (nri-plugins §3.5.2 step 4)
    assertEquals(
        "reserved[0]=0[] default[0]=0[] w[0]=1[uid-pa:c0] w[1]=2[uid-pb:c0]",
        BalloonsNode.balloons(d));
  }

  @Test
  void samePodTakesThePodBalloonWithMostFreeMilliCpus() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_ONE, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 700);
    allocate(p, "default", "pa", "", "c1", 600); // does not fit w[0]: w[1]
    Decisions d = allocate(p, "default", "pa", "", "c2", 300);
    // both balloons hold the pod and can take 300; w[1] has 400 free, w[0] 300
    assertEquals(
        "reserved[0]=0[] default[0]=0[] w[0]=1[uid-pa:c0] w[1]=2[uid-pa:c1, uid-pa:c2]",
        BalloonsNode.balloons(d));
  }

  private static final String TWO_OF_TWO =
      """
      BalloonTypes:
        - {Name: x, Namespaces: [default], MinCPUs: 2, MaxCPUs: 2, MinBalloons: 2,
           PreferSpreadingPods: true}
      """;

  @Test
  void anUpdateThatStillFitsKeepsTheContainerInItsBalloon() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_TWO, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 1000);
    allocate(p, "default", "pb", "", "c0", 1800);
    allocate(p, "default", "pc", "", "c0", 900);
    Decisions d = release(p, "pb", "c0");
    String before = BalloonsNode.balloons(d);
    CpuSet cpus = cpus("pc", "c0");
    assertEquals(
        "reserved[0]=0[] default[0]=0[] x[0]=2-3[uid-pa:c0, uid-pc:c0] x[1]=4-5[]", before);
    // kubelet repeats the same resources: nothing moves
    d = fixture.apply(p.update(node.container(PolicyHarness.id("pc", "c0")), node.cache()));
    assertEquals(before, BalloonsNode.balloons(d));
    assertEquals(cpus, cpus("pc", "c0"));
    // a smaller request still fits: nothing moves either
    node.setResources(PolicyHarness.id("pc", "c0"), FakeNode.cpu(500, 500));
    d = fixture.apply(p.update(node.container(PolicyHarness.id("pc", "c0")), node.cache()));
    assertEquals(before, BalloonsNode.balloons(d));
    assertEquals(cpus, cpus("pc", "c0"));
  }

  @Test
  void decisionsThePipelineDroppedLeaveNoTrace() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_ONE, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 500);
    for (String pod : new String[] {"px", "py", "pz"}) {
      fixture.pod("default", pod, Map.of());
      p.allocate(fixture.create("default", pod, "c0", 800, false), node.cache()); // not applied
      node.cache().removeContainer(PolicyHarness.id(pod, "c0"));
    }
    Decisions d = allocate(p, "default", "pb", "", "c0", 300);
    BalloonsNode control = new BalloonsNode();
    BalloonsPolicy q = policy(TWO_OF_ONE, N4C16.onlineCpus(), CpuSet.of(0));
    control.allocate(q, "default", "pa", "c0", 500);
    Decisions e = control.allocate(q, "default", "pb", "c0", 300);
    assertEquals(BalloonsNode.balloons(e), BalloonsNode.balloons(d));
    assertEquals(e.updates(), d.updates());
  }

  @Test
  void aRestartedPolicyContinuesExactly() throws Exception {
    BalloonsPolicy p = policy(SUITE, CpuSet.parse("1-15"), CpuSet.of(1));
    allocate(p, "default", "pod1", "four-cpu", "c0", 3000);
    allocate(p, "default", "pod2", "five-cpu", "c0", 1250);
    fixture.pod("default", "pod3", Map.of(ANNOTATION, "four-cpu"));
    FakeNode restarted = node.copy();
    BalloonsPolicy q = policy(SUITE, CpuSet.parse("1-15"), CpuSet.of(1));
    assertEquals(Decisions.NONE.updates(), q.rebalance(restarted.cache()).updates());
    Decisions d = allocate(p, "default", "pod3", "four-cpu", "c0", 2000);
    restarted.create("pod3", "c0", FakeNode.cpu(2000, 2000));
    Decisions e =
        q.allocate(restarted.container(PolicyHarness.id("pod3", "c0")), restarted.cache());
    assertEquals(d.updates(), e.updates());
    assertEquals(BalloonsNode.balloons(d), BalloonsNode.balloons(e));
  }

  @Test
  void releasingAnUnknownContainerChangesNothing() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_ONE, N4C16.onlineCpus(), CpuSet.of(0));
    Decisions d = allocate(p, "default", "pa", "", "c0", 500);
    fixture.pod("default", "pq", Map.of());
    Decisions r = p.release(fixture.create("default", "pq", "c0", 100, false), node.cache());
    assertEquals(BalloonsNode.balloons(d), BalloonsNode.balloons(r));
    assertTrue(r.updates().isEmpty(), r.updates().toString());
  }

  @Test
  void anUpdateThatNoLongerFitsMovesTheContainer() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_TWO, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 1500);
    allocate(p, "default", "pb", "", "c0", 1500);
    allocate(p, "default", "pc", "", "c0", 400);
    node.setResources(PolicyHarness.id("pc", "c0"), FakeNode.cpu(600, 600));
    Decisions d =
        fixture.apply(p.update(node.container(PolicyHarness.id("pc", "c0")), node.cache()));
    assertEquals(
        "reserved[0]=0[] default[0]=0[] x[0]=2-3[uid-pa:c0] x[1]=4-5[uid-pb:c0] x[2]=6-7[uid-pc:c0]",
        BalloonsNode.balloons(d));
  }

  @Test
  void anUpdateOfAContainerWhosePodIsGoneKeepsItInItsBalloon() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_TWO, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 1000);
    node.cache().removePod("sandbox-pa");
    node.setResources(PolicyHarness.id("pa", "c0"), FakeNode.cpu(1500, 1500));
    Decisions d =
        fixture.apply(p.update(node.container(PolicyHarness.id("pa", "c0")), node.cache()));
    assertEquals("reserved[0]=0[] default[0]=0[] x[0]=2-3[uid-pa:c0] x[1]=4-5[]", balloons(d));
    assertEquals(1536, d.updates().get(0).assignment().cpuShares());
  }

  @Test
  void unreadablePolicyDataOfThisConfigurationIsPlacedAgain() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_TWO, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 1000);
    FakeNode restarted =
        node.copy(
            data ->
                ((com.fasterxml.jackson.databind.node.ObjectNode) data.deepCopy())
                    .put(BalloonState.BALLOONS, "garbage"));
    BalloonsPolicy q = policy(TWO_OF_TWO, N4C16.onlineCpus(), CpuSet.of(0));
    Decisions d = q.rebalance(restarted.cache());
    assertEquals("reserved[0]=0[] default[0]=0[] x[0]=2-3[uid-pa:c0] x[1]=4-5[]", balloons(d));
  }

  private static String balloons(Decisions d) {
    return BalloonsNode.balloons(d);
  }

  @Test
  void test05Namespace() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: nsballoon, Namespaces: ["*"], MinCPUs: 2, MaxCPUs: 4,
                 PreferPerNamespaceBalloon: true}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(1));
    pair(p, "default", "pod0", 0);
    assertEquals(2, cpus("pod0", "pod0c0").size());
    pair(p, "e2e-a", "pod1", 0);
    assertDisjoint(cpus("pod0", "pod0c0"), cpus("pod1", "pod1c0"));
    pair(p, "default", "pod2", 2000);
    assertEquals(4, cpus("pod2", "pod2c0").size());
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod2", "pod2c0"));
    assertDisjoint(cpus("pod2", "pod2c0"), cpus("pod1", "pod1c0"));
    pair(p, "default", "pod3", 100); // nsballoon[0] is full at MaxCPUs 4: a new balloon
    assertEquals(2, cpus("pod3", "pod3c0").size());
    assertDisjoint(cpus("pod3", "pod3c0"), cpus("pod2", "pod2c0"), cpus("pod1", "pod1c0"));
    pair(p, "e2e-b", "pod4", 2000);
    assertEquals(4, cpus("pod4", "pod4c0").size());
    pair(p, "e2e-c", "pod5", 100);
    assertEquals(2, cpus("pod5", "pod5c0").size());
    assertDisjoint(
        cpus("pod5", "pod5c0"),
        cpus("pod4", "pod4c0"),
        cpus("pod3", "pod3c0"),
        cpus("pod2", "pod2c0"),
        cpus("pod1", "pod1c0"));
    pair(p, "e2e-d", "pod6", 100); // no room for a new balloon: balanced
    assertEquals(cpus("pod1", "pod1c0"), cpus("pod6", "pod6c0"));
  }

  /** Allocates containers c0 and c1 of {@code pod}, checking they share their CPUs. */
  private void pair(BalloonsPolicy p, String ns, String pod, long milli) {
    allocate(p, ns, pod, "", pod + "c0", milli);
    allocate(p, ns, pod, "", pod + "c1", milli);
    assertEquals(cpus(pod, pod + "c0"), cpus(pod, pod + "c1"));
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

  /** The physical cores of {@code cpus}, by their lowest CPU. */
  private static java.util.Set<Integer> cores(SystemTopology t, CpuSet cpus) {
    return cpus.stream()
        .mapToObj(id -> t.coreCpus(id).stream().min().orElseThrow())
        .collect(java.util.stream.Collectors.toSet());
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

  private void pairOf(BalloonsPolicy p, String pod, String type, long milli) {
    fixture.pod("default", pod, Map.of(ANNOTATION, type));
    pair(p, "default", pod, milli);
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

  private static int countOf(List<Integer> values, int value) {
    return (int) values.stream().filter(v -> v == value).count();
  }

  /** The balloon CPUs (without shared idle CPUs) of the balloon holding {@code pod}'s c0. */
  private CpuSet ownCpus(BalloonsPolicy p, String pod) {
    String id = PolicyHarness.id(pod, pod + "c0");
    return BalloonState.read(node.cache().policyData("balloons").orElseThrow()).stream()
        .filter(b -> b.containers().containsKey(id))
        .findFirst()
        .orElseThrow()
        .cpus();
  }
}
