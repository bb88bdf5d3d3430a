package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Why balloons put a container in its balloon (the type, what matched it, and whether the balloon
 * was reused, inflated or created), and why it refused one.
 */
class ExplanationTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  private final BalloonsNode fixture = new BalloonsNode();

  private static BalloonsPolicy policy() throws Exception {
    return new BalloonsPolicy(
        BalloonsNode.NAME,
        N4C16,
        parse(
            """
            BalloonTypes:
              - {Name: team, Namespaces: ["team-*"], MaxBalloons: 2, MaxCPUs: 4}
              - {Name: default, MinCPUs: 1}
            """),
        N4C16.onlineCpus(),
        CpuSet.parse("0"));
  }

  private static List<String> why(Decisions d, String pod) {
    return d.explanations().get(BalloonsNode.id(pod, "c0")).lines();
  }

  @Test
  void aBalloonIsCreatedThenReusedThenInflated() throws Exception {
    BalloonsPolicy p = policy();
    String type = "type team (namespace team-a matches \"team-*\")";
    assertEquals(
        List.of("balloon team[0]: " + type + ", created (new-balloon)"),
        why(fixture.allocate(p, "team-a", "a1", "c0", 500), "a1"));
    assertEquals(
        List.of("balloon team[0]: " + type + ", reused (balanced)"),
        why(fixture.allocate(p, "team-a", "a2", "c0", 500), "a2"));
    assertEquals(
        List.of("balloon team[0]: " + type + ", inflated from 1 to 2 CPUs (balanced-inflate)"),
        why(fixture.allocate(p, "team-a", "a3", "c0", 1000), "a3"));
  }

  @Test
  void theDefaultAndReservedTypesSayWhy() throws Exception {
    BalloonsPolicy p = policy();
    assertEquals(
        List.of("balloon default[0]: type default (no type matched), reused"),
        why(fixture.allocate(p, "other", "o1", "c0", 500), "o1"));
    assertEquals(
        List.of(
            "balloon reserved[0]: type reserved (namespace kube-system matches \"kube-system\"),"
                + " reused"),
        why(fixture.allocate(p, "kube-system", "k1", "c0", 100), "k1"));
  }

  @Test
  void aRefusalNamesTheClosestBalloonAndWhatItLacked() throws Exception {
    BalloonsPolicy p = policy();
    fixture.allocate(p, "team-a", "a1", "c0", 3000);
    fixture.allocate(p, "team-b", "b1", "c0", 3500);
    PolicyException e =
        assertThrows(PolicyException.class, () -> fixture.allocate(p, "team-c", "c1", "c0", 2000));
    assertEquals(
        List.of(
            "refused: no balloon of type team can take 2000m; free CPUs: 7; closest team[0] lacks"
                + " 1000m",
            "  team[0]: 3 CPUs (at most 4), 1 containers, 3000m requested: no room: lacks 1000m",
            "  team[1]: 4 CPUs (at most 4), 1 containers, 3500m requested: no room: lacks 1500m"),
        e.why().orElseThrow().lines());
    assertEquals(
        "no suitable balloon instance available for c0 (2000 mCPU) of balloon type \"team\": 2"
            + " instance(s) (MaxBalloons 2, MaxCPUs 4), free CPUs 2-3,7,12-15",
        e.getMessage());
  }
}
