package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.ResourceOverride.Amounts;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The CPU request that sizes a balloon is the container's adjusted one. */
class BalloonsAdjustmentTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final String TYPES =
      """
      BalloonTypes:
        - Name: full
          Namespaces: [full]
          MinCPUs: 1
          MaxCPUs: 8
      """;

  private final BalloonsNode fixture = new BalloonsNode();

  private static BalloonsPolicy policy() throws Exception {
    return new BalloonsPolicy(
        BalloonsNode.NAME, N4C16, parse(TYPES), N4C16.onlineCpus(), CpuSet.parse("0"));
  }

  private static Adjustment cpu(long milli) {
    return new Adjustment(
        "wide",
        Optional.of(new ResourceOverride(Optional.of(new Amounts(milli, milli)), Optional.empty())),
        "",
        "",
        OptionalLong.empty());
  }

  private void allocate(BalloonsPolicy p, String pod, long milli, Adjustment a) {
    Container c = fixture.create("full", pod, "c0", milli, false).withAdjustment(a);
    fixture.node.cache().putContainer(c);
    fixture.apply(p.allocate(c, fixture.node.cache()));
  }

  @Test
  void theAdjustedRequestSizesTheBalloon() throws Exception {
    BalloonsPolicy plain = policy();
    allocate(plain, "pa", 500, Adjustment.NONE);
    assertEquals(1, fixture.cpus("pa", "c0").size());

    BalloonsNode other = new BalloonsNode();
    BalloonsPolicy adjusted = policy();
    Container c = other.create("full", "pb", "c0", 500, false).withAdjustment(cpu(2500));
    other.node.cache().putContainer(c);
    other.apply(adjusted.allocate(c, other.node.cache()));
    assertEquals(3, other.cpus("pb", "c0").size());
  }

  @Test
  void classesOnlyAdjustmentsKeepTheRequest() throws Exception {
    Adjustment classes = new Adjustment("cls", Optional.empty(), "gold", "", OptionalLong.empty());
    allocate(policy(), "pa", 1500, classes);
    assertEquals(2, fixture.cpus("pa", "c0").size());
  }
}
