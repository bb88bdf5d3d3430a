package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsNode.balloons;
import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reconfiguration, init containers and preserved CPUs. */
class BalloonsReconfigureTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  private final BalloonsNode fixture = new BalloonsNode();

  private static BalloonsPolicy policy(String yaml) throws Exception {
    return new BalloonsPolicy("balloons", N4C16, parse(yaml), N4C16.onlineCpus(), CpuSet.of(0));
  }

  private static final String BEFORE =
      """
      BalloonTypes:
        - Name: small
          Namespaces: [app]
          MaxCPUs: 2
          CPUClass: slow
      """;

  private String data() {
    return balloons(new Decisions(List.of(), fixture.node.cache().policyData("balloons")));
  }

  private List<String> updated(Decisions d) {
    return d.updates().stream().map(Decisions.Update::cacheId).toList();
  }

  @Test
  void aChangedConfigurationPlacesEveryContainerAgainInCreationOrder() throws Exception {
    BalloonsPolicy before = policy(BEFORE);
    fixture.allocate(before, "app", "pa", "c0", 1500);
    fixture.allocate(before, "app", "pb", "c0", 1500);
    fixture.allocate(before, "app", "pa", "c1", 500); // same pod: small[0] inflates to 2
    assertEquals(
        "reserved[0]=0[] default[0]=0[] small[0]=2-3[uid-pa:c0, uid-pa:c1]"
            + " small[1]=4-5[uid-pb:c0]",
        data());
    BalloonsPolicy after =
        policy(
            """
            BalloonTypes:
              - Name: big
                Namespaces: [app]
                MinCPUs: 4
                PreferNewBalloons: true
                PreferSpreadingPods: true
            """);
    Decisions d = fixture.apply(after.reconfigure(fixture.node.cache()));
    // oldest pod first (pa's c0 and c1, then pb), each into a new balloon of MinCPUs 4
    assertEquals(
        "reserved[0]=0[] default[0]=0[] big[0]=4-7[uid-pa:c0] big[1]=8-11[uid-pa:c1]"
            + " big[2]=12-15[uid-pb:c0]",
        balloons(d));
    // updates come in the cache's creation order
    assertEquals(List.of("uid-pa:c0", "uid-pb:c0", "uid-pa:c1"), updated(d));
    assertEquals(List.of(), updated(fixture.apply(after.rebalance(fixture.node.cache()))));
  }

  @Test
  void aChangeOfCpuClassesOnlyMovesNothing() throws Exception {
    BalloonsPolicy before = policy(BEFORE);
    fixture.allocate(before, "app", "pa", "c0", 1500);
    String placed = data();
    BalloonsPolicy after = policy(BEFORE.replace("slow", "fast") + "IdleCPUClass: idle\n");
    Decisions d = fixture.apply(after.rebalance(fixture.node.cache()));
    assertEquals(List.of(), updated(d));
    assertEquals(placed, balloons(d));
  }

  @Test
  void aConfigurationThatCannotPlaceEveryContainerIsRefused() throws Exception {
    BalloonsPolicy before = policy(BEFORE);
    fixture.allocate(before, "app", "pa", "c0", 1500);
    fixture.allocate(before, "app", "pb", "c0", 1500);
    String placed = data();
    BalloonsPolicy after = policy(BEFORE.replace("MaxCPUs: 2", "MaxCPUs: 2\n    MaxBalloons: 1"));
    PolicyException e =
        assertThrows(PolicyException.class, () -> after.reconfigure(fixture.node.cache()));
    assertEquals(
        "balloons: the configuration cannot place 1 containers: app/pb/c0: no suitable balloon"
            + " instance available for c0 (1500 mCPU) of balloon type \"small\": 1 instance(s)"
            + " (MaxBalloons 1, MaxCPUs 2), free CPUs 1,4-15",
        e.getMessage());
    assertEquals(placed, data());
    // a call other than a reconfiguration leaves such a container out instead of failing
    Decisions d = fixture.apply(after.rebalance(fixture.node.cache()));
    assertEquals("reserved[0]=0[] default[0]=0[] small[0]=2-3[uid-pa:c0]", balloons(d));
    d = fixture.allocate(after, "app", "pc", "c0", 100);
    assertEquals("reserved[0]=0[] default[0]=0[] small[0]=2-3[uid-pa:c0, uid-pc:c0]", balloons(d));
  }

  @Test
  void initContainersLeaveTheBalloonWhenTheNextContainerOfThePodComes() throws Exception {
    BalloonsPolicy p = policy(BEFORE.replace("MaxCPUs: 2", "MaxCPUs: 8"));
    Container i0 = fixture.create("app", "pa", "init0", 100, true);
    fixture.apply(p.allocate(i0, fixture.node.cache()));
    Container i1 = fixture.create("app", "pa", "init1", 100, true);
    Decisions d = fixture.apply(p.allocate(i1, fixture.node.cache()));
    assertEquals("reserved[0]=0[] default[0]=0[] small[0]=1[uid-pa:init1]", balloons(d));
    d = fixture.allocate(p, "app", "pa", "c0", 3000);
    assertEquals("reserved[0]=0[] default[0]=0[] small[0]=1-3[uid-pa:c0]", balloons(d));
  }

  @Test
  void aContainerWithPreservedCpusStaysOutOfTheBalloons() throws Exception {
    BalloonsPolicy p = policy(BEFORE);
    fixture.pod("app", "pa", Map.of("cpu.preserve.resource-policy.nri.io/container.c0", "true"));
    Decisions d = fixture.allocate(p, "app", "pa", "c0", 1500);
    assertEquals(List.of(), updated(d));
    assertEquals("reserved[0]=0[] default[0]=0[]", balloons(d));
    d = fixture.allocate(p, "app", "pa", "c1", 1500);
    assertEquals("reserved[0]=0[] default[0]=0[] small[0]=2-3[uid-pa:c1]", balloons(d));
    d = fixture.apply(p.update(fixture.node.container("uid-pa:c0"), fixture.node.cache()));
    assertEquals(List.of(), updated(d));
  }

  @Test
  void preservedMemoryKeepsCpusPinnedButLeavesMemoryNodesAlone() throws Exception {
    BalloonsPolicy p = policy(BEFORE);
    fixture.pod("app", "pa", Map.of("memory.preserve.cri-resource-manager.intel.com/pod", "true"));
    Decisions d = fixture.allocate(p, "app", "pa", "c0", 1500);
    assertEquals(CpuSet.parse("2-3"), d.updates().get(0).assignment().cpus());
    assertEquals(CpuSet.EMPTY, d.updates().get(0).assignment().mems());
    d = fixture.allocate(p, "app", "pb", "c0", 1500);
    assertEquals(CpuSet.of(1), d.updates().get(0).assignment().mems());
  }

  @Test
  void aContainerWhoseAnnotatedTypeIsRemovedGoesToTheDefaultBalloon() throws Exception {
    BalloonsPolicy before = policy(BEFORE);
    fixture.pod("other", "pa", Map.of("balloon.balloons.cri-resource-manager.intel.com", "small"));
    fixture.allocate(before, "other", "pa", "c0", 1500);
    assertEquals("reserved[0]=0[] default[0]=0[] small[0]=2-3[uid-pa:c0]", data());
    BalloonsPolicy after = policy("BalloonTypes: [{Name: big, Namespaces: [app]}]");
    Decisions d = fixture.apply(after.reconfigure(fixture.node.cache()));
    assertEquals("reserved[0]=0[] default[0]=0[uid-pa:c0]", balloons(d));
    assertEquals(CpuSet.of(0), d.updates().get(0).assignment().cpus());
  }
}
