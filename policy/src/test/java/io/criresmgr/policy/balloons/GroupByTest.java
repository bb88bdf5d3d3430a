package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A balloon type's {@code GroupBy}: containers of one group prefer one balloon instance. */
class GroupByTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  private final BalloonsNode fixture = new BalloonsNode();

  private static BalloonsPolicy policy(String groupBy) throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: grp
            Namespaces: [apps]
            PreferNewBalloons: true
            GroupBy: "%s"
        """
            .formatted(groupBy);
    return new BalloonsPolicy(
        BalloonsNode.NAME, N4C16, parse(yaml), N4C16.onlineCpus(), CpuSet.parse("0"));
  }

  private void allocate(BalloonsPolicy p, String pod, Map<String, String> labels, long milli) {
    fixture.pod("apps", pod, labels, Map.of("team", labels.getOrDefault("team", "none")));
    fixture.allocate(p, "apps", pod, "c0", milli);
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
  void podsWithTheSameLabelValueShareABalloonOthersGetTheirOwn() throws Exception {
    BalloonsPolicy p = policy("${pod/labels/app}");
    allocate(p, "web1", Map.of("app", "web"), 1000);
    allocate(p, "db1", Map.of("app", "db"), 1000);
    allocate(p, "web2", Map.of("app", "web"), 1000);
    allocate(p, "none", Map.of(), 1000);
    assertEquals("grp[0]", balloonOf("web1"));
    assertEquals("grp[1]", balloonOf("db1"));
    assertEquals("grp[0]", balloonOf("web2"));
    // A pod without the label is in no group: PreferNewBalloons gives it a balloon of its own.
    assertEquals("grp[2]", balloonOf("none"));
    assertEquals(2, fixture.cpus("web2", "c0").size());
    assertEquals(fixture.cpus("web1", "c0"), fixture.cpus("web2", "c0"));
  }

  @Test
  void templatesJoinAnnotationsAndOtherKeys() throws Exception {
    BalloonsPolicy p = policy("team-${pod/annotations/team}/${namespace}");
    allocate(p, "a1", Map.of("team", "a"), 500);
    allocate(p, "b1", Map.of("team", "b"), 500);
    allocate(p, "a2", Map.of("team", "a"), 500);
    assertEquals("grp[0]", balloonOf("a1"));
    assertEquals("grp[1]", balloonOf("b1"));
    assertEquals("grp[0]", balloonOf("a2"));
    assertEquals(1, fixture.cpus("a2", "c0").size());
  }

  @Test
  void withoutGroupByPreferNewBalloonsSeparatesEveryPod() throws Exception {
    BalloonsPolicy p = policy("");
    allocate(p, "web1", Map.of("app", "web"), 1000);
    allocate(p, "web2", Map.of("app", "web"), 1000);
    assertEquals("grp[1]", balloonOf("web2"));
  }
}
