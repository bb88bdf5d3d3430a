package io.criresmgr.policy.template;

import static io.criresmgr.policy.FakeNode.cpu;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.ResourceOverride;
import io.criresmgr.cache.ResourceOverride.Amounts;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.FakeNode;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The template policy decides exclusivity by the container's adjusted resources. */
class TemplateAdjustmentTest {
  private final FakeNode node = new FakeNode(TemplatePolicyProvider.NAME);
  private final TemplatePolicy policy =
      new TemplatePolicy(CpuSet.range(0, 3), CpuSet.of(0, 1), TemplateOptions.DEFAULTS);

  private static Adjustment adjustedCpu(long request, long limit) {
    return new Adjustment(
        "adj",
        Optional.of(
            new ResourceOverride(Optional.of(new Amounts(request, limit)), Optional.empty())),
        "",
        "",
        OptionalLong.empty());
  }

  private CpuSet allocate(String name, Resources r, Adjustment a) {
    Container c = node.create("p", name, r).withAdjustment(a);
    node.cache().putContainer(c);
    node.apply(policy.allocate(c, node.cache()));
    return node.container(c.cacheId()).assignment().cpus();
  }

  @Test
  void anAdjustmentToWholeCpusMakesThemExclusive() {
    assertEquals(CpuSet.range(0, 3), allocate("plain", cpu(500, 1000), Adjustment.NONE));
    Container c =
        node.create("p", "adjusted", cpu(500, 1000)).withAdjustment(adjustedCpu(2000, 2000));
    assertEquals(2, policy.wantedExclusive(c));
    assertEquals(CpuSet.range(0, 1), allocate("adjusted", cpu(500, 1000), adjustedCpu(2000, 2000)));
  }

  @Test
  void anAdjustmentToAFractionMakesAnExclusiveContainerShare() {
    Container c = node.create("p", "x", cpu(2000, 2000));
    assertEquals(2, policy.wantedExclusive(c));
    assertEquals(0, policy.wantedExclusive(c.withAdjustment(adjustedCpu(1500, 1500))));
    assertEquals(0, policy.wantedExclusive(c.withAdjustment(adjustedCpu(2000, 0))));
  }
}
