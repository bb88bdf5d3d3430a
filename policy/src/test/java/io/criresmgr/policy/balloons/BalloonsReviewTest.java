package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Review of the balloons policy: the contract's edge cases (dropped decisions, restart, updates,
 * unknown containers, unreadable data) and the fill chain's tie-breaks (docs/policy/balloons.md,
 * "Which balloon a container goes into").
 */
class BalloonsReviewTest extends BalloonsReviewFixture {
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
    // both balloons have 1000 mCPU free; w[1] holds no container (a tie goes to the fewest
    // containers)
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
    d = fixture.apply(p.update(node.container(BalloonsNode.id("pc", "c0")), node.cache()));
    assertEquals(before, BalloonsNode.balloons(d));
    assertEquals(cpus, cpus("pc", "c0"));
    // a smaller request still fits: nothing moves either
    node.setResources(BalloonsNode.id("pc", "c0"), FakeNode.cpu(500, 500));
    d = fixture.apply(p.update(node.container(BalloonsNode.id("pc", "c0")), node.cache()));
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
      node.cache().removeContainer(BalloonsNode.id(pod, "c0"));
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
    Decisions e = q.allocate(restarted.container(BalloonsNode.id("pod3", "c0")), restarted.cache());
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
    node.setResources(BalloonsNode.id("pc", "c0"), FakeNode.cpu(600, 600));
    Decisions d =
        fixture.apply(p.update(node.container(BalloonsNode.id("pc", "c0")), node.cache()));
    assertEquals(
        "reserved[0]=0[] default[0]=0[] x[0]=2-3[uid-pa:c0] x[1]=4-5[uid-pb:c0] x[2]=6-7[uid-pc:c0]",
        BalloonsNode.balloons(d));
  }

  @Test
  void anUpdateOfAContainerWhosePodIsGoneKeepsItInItsBalloon() throws Exception {
    BalloonsPolicy p = policy(TWO_OF_TWO, N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "default", "pa", "", "c0", 1000);
    node.cache().removePod("sandbox-pa");
    node.setResources(BalloonsNode.id("pa", "c0"), FakeNode.cpu(1500, 1500));
    Decisions d =
        fixture.apply(p.update(node.container(BalloonsNode.id("pa", "c0")), node.cache()));
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

  @Test
  void updatesInTheReservedAndInAnOwnDefaultBalloonResizeInPlace() throws Exception {
    BalloonsPolicy p =
        policy("BalloonTypes: [{Name: default, MinCPUs: 1}]", N4C16.onlineCpus(), CpuSet.of(0));
    allocate(p, "kube-system", "pk", "", "c0", 500);
    allocate(p, "default", "pd", "", "c0", 500);
    allocate(p, "default", "pe", "", "c0", 300);
    node.setResources(BalloonsNode.id("pk", "c0"), FakeNode.cpu(3000, 3000));
    Decisions d =
        fixture.apply(p.update(node.container(BalloonsNode.id("pk", "c0")), node.cache()));
    assertEquals(3072, d.updates().get(0).assignment().cpuShares()); // overbooked, not resized
    node.setResources(BalloonsNode.id("pd", "c0"), FakeNode.cpu(2500, 2500));
    d = fixture.apply(p.update(node.container(BalloonsNode.id("pd", "c0")), node.cache()));
    assertEquals("reserved[0]=0[uid-pk:c0] default[0]=1-3[uid-pd:c0, uid-pe:c0]", balloons(d));
    assertEquals(CpuSet.parse("1-3"), cpus("pe", "c0")); // its balloon mate is re-pinned
  }
}
