package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BalloonsPolicyTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final String NAME = "balloons";

  private final BalloonsNode fixture = new BalloonsNode();
  private final FakeNode node = fixture.node;

  private static BalloonsPolicy policy(String yaml) throws Exception {
    return new BalloonsPolicy(NAME, N4C16, parse(yaml), N4C16.onlineCpus(), CpuSet.parse("0"));
  }

  private String balloons(Decisions d) {
    return BalloonsNode.balloons(d);
  }

  private static final String TYPES =
      """
      BalloonTypes:
        - Name: full
          Namespaces: [full]
          MinCPUs: 1
          MaxCPUs: 4
          MaxBalloons: 2
        - Name: spread
          Namespaces: [spread]
          PreferSpreadingPods: true
          PreferNewBalloons: true
        - Name: perns
          Namespaces: ["ns*"]
          PreferPerNamespaceBalloon: true
      """;

  /** Creates container {@code name} of pod {@code pod} in {@code ns} and allocates it. */
  private Decisions allocate(BalloonsPolicy p, String ns, String pod, String name, long milli) {
    return fixture.allocate(p, ns, pod, name, milli);
  }

  private Decisions apply(Decisions d) {
    node.apply(d);
    return d;
  }

  @Test
  void initialStateHasReservedDefaultAndMinBalloonsByPriority() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - Name: low
                AllocatorPriority: 2
                MinBalloons: 1
                MinCPUs: 2
              - Name: high
                AllocatorPriority: 0
                MinBalloons: 2
                MinCPUs: 1
            """);
    String got =
        p.initialBalloons().stream()
            .map(b -> b.name() + "=" + b.cpus())
            .collect(Collectors.joining(" "));
    assertEquals("reserved[0]=0 default[0]=0 high[0]=1 high[1]=2 low[0]=4-5", got);
  }

  @Test
  void defaultAndReservedContainersShareTheReservedCpus() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    Decisions d = allocate(p, "default", "pa", "c0", 1500);
    assertEquals("reserved[0]=0[] default[0]=0[uid-pa:c0]", balloons(d));
    d = allocate(p, "kube-system", "pk", "c0", 100);
    assertEquals("reserved[0]=0[uid-pk:c0] default[0]=0[uid-pa:c0]", balloons(d));
    assertEquals(
        List.of(Assignment.NONE.withCpus(CpuSet.of(0)).withCpuShares(102).withMems(CpuSet.of(0))),
        assignments(d));
  }

  @Test
  void balloonsInflateAndDeflateWithTheirRequests() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    Decisions d = allocate(p, "full", "pa", "c0", 1500);
    assertEquals("reserved[0]=0[] default[0]=0[] full[0]=2-3[uid-pa:c0]", balloons(d));
    d = allocate(p, "full", "pa", "c1", 1600);
    assertEquals("reserved[0]=0[] default[0]=0[] full[0]=2-5[uid-pa:c0, uid-pa:c1]", balloons(d));
    // the subject first, then the other container of the balloon whose cpuset grew
    assertEquals(
        List.of("uid-pa:c1", "uid-pa:c0"),
        d.updates().stream().map(Decisions.Update::cacheId).toList());
    assertEquals(CpuSet.parse("2-5"), d.updates().get(1).assignment().cpus());
    assertEquals(1638, d.updates().get(0).assignment().cpuShares());
    d = apply(p.release(node.container("uid-pa:c1"), node.cache()));
    assertEquals("reserved[0]=0[] default[0]=0[] full[0]=4-5[uid-pa:c0]", balloons(d));
    d = apply(p.release(node.container("uid-pa:c0"), node.cache()));
    assertEquals("reserved[0]=0[] default[0]=0[]", balloons(d));
  }

  @Test
  void samePodBeforeBalancedAndMaxBalloonsLimitsNewInstances() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    allocate(p, "full", "pa", "c0", 3000);
    allocate(p, "full", "pb", "c0", 3000); // does not fit full[0] (MaxCPUs 4): new balloon
    Decisions d = allocate(p, "full", "pa", "c1", 1000); // same pod: full[0]
    assertEquals(
        "reserved[0]=0[] default[0]=0[] full[0]=1-3,7[uid-pa:c0, uid-pa:c1] full[1]=4-6[uid-pb:c0]",
        balloons(d));
    PolicyException e =
        assertThrows(PolicyException.class, () -> allocate(p, "full", "pc", "c0", 2000));
    assertEquals(
        "no suitable balloon instance available for c0 (2000 mCPU) of balloon type \"full\":"
            + " 2 instance(s) (MaxBalloons 2, MaxCPUs 4), free CPUs 8-15",
        e.getMessage());
  }

  @Test
  void spreadingPodsWithNewBalloonsGivesEachContainerItsOwnBalloon() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    allocate(p, "spread", "pa", "c0", 500);
    Decisions d = allocate(p, "spread", "pa", "c1", 500);
    assertEquals(
        "reserved[0]=0[] default[0]=0[] spread[0]=1[uid-pa:c0] spread[1]=2[uid-pa:c1]",
        balloons(d));
  }

  @Test
  void perNamespaceBalloonsKeepNamespacesApart() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    allocate(p, "ns1", "pa", "c0", 500);
    allocate(p, "ns2", "pb", "c0", 500);
    Decisions d = allocate(p, "ns1", "pc", "c0", 500);
    assertEquals(
        "reserved[0]=0[] default[0]=0[] perns[0]=1[uid-pa:c0, uid-pc:c0] perns[1]=2[uid-pb:c0]",
        balloons(d));
  }

  @Test
  void aRestartedPolicyContinuesFromThePolicyData() throws Exception {
    allocate(policy(TYPES), "full", "pa", "c0", 1500);
    BalloonsPolicy restarted = policy(TYPES);
    Decisions d = allocate(restarted, "full", "pa", "c1", 500);
    assertEquals("reserved[0]=0[] default[0]=0[] full[0]=2-3[uid-pa:c0, uid-pa:c1]", balloons(d));
    assertEquals(
        List.of("uid-pa:c1"), d.updates().stream().map(Decisions.Update::cacheId).toList());
  }

  @Test
  void dataOfAnotherConfigurationIsPlacedAgain() throws Exception {
    allocate(policy(TYPES), "full", "pa", "c0", 1500);
    allocate(policy(TYPES), "spread", "pb", "c0", 500);
    BalloonsPolicy other =
        policy(
            """
            BalloonTypes:
              - Name: full
                Namespaces: [full]
                MinCPUs: 3
            """);
    Decisions d = allocate(other, "full", "pa", "c1", 500);
    assertEquals(
        "reserved[0]=0[] default[0]=0[uid-pb:c0] full[0]=1-3[uid-pa:c0, uid-pa:c1]", balloons(d));
  }

  @Test
  void anUpdatedRequestResizesTheBalloonAndPinsMemoryToItsNodes() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    allocate(p, "full", "pa", "c0", 1000);
    node.setResources("uid-pa:c0", FakeNode.cpu(4000, 4000));
    Decisions d = apply(p.update(node.container("uid-pa:c0"), node.cache()));
    // its balloon can grow to 4 CPUs (MaxCPUs): it inflates in place, the container stays
    assertEquals("reserved[0]=0[] default[0]=0[] full[0]=1,4-6[uid-pa:c0]", balloons(d));
    Assignment a = d.updates().get(0).assignment();
    assertEquals(CpuSet.of(N4C16.cpuNodes(CpuSet.parse("1,4-6"))), a.mems());
    assertEquals(4096, a.cpuShares());
  }

  @Test
  void otherPodsFillFreeRoomThenInflateBeforeANewBalloon() throws Exception {
    BalloonsPolicy p = policy(TYPES);
    allocate(p, "full", "pa", "c0", 1500);
    Decisions d = allocate(p, "full", "pb", "c0", 500); // balanced: fits without inflating
    assertEquals("reserved[0]=0[] default[0]=0[] full[0]=2-3[uid-pa:c0, uid-pb:c0]", balloons(d));
    d = allocate(p, "full", "pc", "c0", 1000); // balanced-inflate
    assertEquals(
        "reserved[0]=0[] default[0]=0[] full[0]=1-3[uid-pa:c0, uid-pb:c0, uid-pc:c0]", balloons(d));
    assertEquals(
        FillChain.methods(parse(TYPES).effectiveTypes().get(1)),
        List.of(
            FillChain.Method.SAME_POD,
            FillChain.Method.BALANCED,
            FillChain.Method.BALANCED_INFLATE,
            FillChain.Method.NEW_BALLOON));
  }

  @Test
  void minBalloonsThatDoNotFitFailCreation() {
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () ->
                policy(
                    """
                    BalloonTypes:
                      - Name: big
                        MinBalloons: 2
                        MinCPUs: 8
                    """));
    assertEquals(
        "balloons: cannot create MinBalloons 2 of balloon type \"big\" with MinCPUs 8 each: only"
            + " 7 CPUs free (1-7)",
        e.getMessage());
  }

  static List<Assignment> assignments(Decisions d) {
    return d.updates().stream().map(Decisions.Update::assignment).toList();
  }
}
