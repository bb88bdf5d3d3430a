package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import org.junit.jupiter.api.Test;

/**
 * Several default-like balloon types, one per group of namespaces, next to the {@code default}
 * type: each namespace group gets its own balloon, the rest the default balloon.
 */
class NamespaceTypesTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  private final BalloonsNode fixture = new BalloonsNode();

  private static BalloonsPolicy policy(String yaml) throws Exception {
    return new BalloonsPolicy(
        BalloonsNode.NAME, N4C16, parse(yaml), N4C16.onlineCpus(), CpuSet.parse("0"));
  }

  private String balloonOf(String pod) {
    String id = BalloonsNode.id(pod, "c0");
    return fixture.balloons().stream()
        .filter(b -> b.containers().containsKey(id))
        .findFirst()
        .orElseThrow()
        .name();
  }

  @Test
  void eachNamespaceGroupHasItsOwnDefaultLikeBalloon() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: team-a, Namespaces: ["team-a-*"], MaxBalloons: 1}
              - {Name: team-b, Namespaces: ["team-b-*"], MaxBalloons: 1}
              - {Name: default, MinCPUs: 1}
            """);
    fixture.allocate(p, "team-a-dev", "a1", "c0", 1000);
    fixture.allocate(p, "team-a-prod", "a2", "c0", 1000);
    fixture.allocate(p, "team-b-dev", "b1", "c0", 500);
    fixture.allocate(p, "other", "o1", "c0", 500);
    fixture.allocate(p, "kube-system", "k1", "c0", 500);
    assertEquals("team-a[0]", balloonOf("a1"));
    assertEquals("team-a[0]", balloonOf("a2"));
    assertEquals(2, fixture.cpus("a2", "c0").size());
    assertEquals("team-b[0]", balloonOf("b1"));
    assertEquals("default[0]", balloonOf("o1"));
    assertEquals("reserved[0]", balloonOf("k1"));
  }

  @Test
  void defaultNamespacesAreMatchedBeforeTheConfiguredTypes() throws Exception {
    // cri-resmgr's order: reserved, default, then the configured types (nri-plugins: list order).
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: team-a, Namespaces: ["team-a-*"]}
              - {Name: default, Namespaces: ["team-*"]}
            """);
    fixture.allocate(p, "team-a-dev", "a1", "c0", 1000);
    assertEquals("default[0]", balloonOf("a1"));
  }
}
