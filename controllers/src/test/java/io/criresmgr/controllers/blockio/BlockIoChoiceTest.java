package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.FakeNode;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link BlockIoController#choice}: adjustment, then policy, then annotations, then QoS class. */
class BlockIoChoiceTest {
  private static final Pod ANNOTATED =
      FakeNode.pod(
          "p1",
          "/kubepods/besteffort/podp1",
          Map.of(BlockIoClassChoice.CRI_RESMGR_KEY + "/pod", "throttled"));
  private static final Pod PLAIN = FakeNode.pod("p2", "/kubepods/besteffort/podp2", Map.of());
  private static final Assignment POLICY =
      new Assignment(CpuSet.EMPTY, CpuSet.EMPTY, 0, 0, 0, 0, Map.of(), "", "slowreads");

  private static Container container(Assignment a) {
    return FakeNode.containerBuilder("p1", "app").qos(QosClass.BEST_EFFORT).assignment(a).build();
  }

  private static Adjustment adjustment(String rdt, String blockio) {
    return new Adjustment("io", Optional.empty(), rdt, blockio, OptionalLong.empty());
  }

  @Test
  void theAdjustmentsClassWins() {
    Container c = container(POLICY).withAdjustment(adjustment("", "fastwrites"));
    BlockIoClassChoice expected = new BlockIoClassChoice("fastwrites", "adjustment io");
    assertEquals(expected, BlockIoController.choice(c, ANNOTATED));
    assertEquals(
        expected, BlockIoController.choice(c.withAssignment(Assignment.NONE, Set.of()), PLAIN));
  }

  @Test
  void withoutAnAdjustmentClassThePolicyAnnotationAndQosDecideAsBefore() {
    // An adjustment that sets only the RDT class does not touch the block I/O choice.
    for (Adjustment a : new Adjustment[] {Adjustment.NONE, adjustment("gold", "")}) {
      assertEquals(
          new BlockIoClassChoice("slowreads", BlockIoController.POLICY_SOURCE),
          BlockIoController.choice(container(POLICY).withAdjustment(a), ANNOTATED));
      assertEquals(
          new BlockIoClassChoice("throttled", BlockIoClassChoice.CRI_RESMGR_KEY + "/pod"),
          BlockIoController.choice(container(Assignment.NONE).withAdjustment(a), ANNOTATED));
      assertEquals(
          BlockIoClassChoice.of(Map.of(), "app", QosClass.BEST_EFFORT),
          BlockIoController.choice(container(Assignment.NONE).withAdjustment(a), PLAIN));
    }
  }
}
