package io.criresmgr.controllers.rdt;

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
import org.junit.jupiter.api.Test;

/** {@link RdtController#choice}: adjustment, then policy, then annotations, then QoS class. */
class RdtChoiceTest {
  private static final Pod ANNOTATED =
      FakeNode.pod(
          "p1",
          "/kubepods/burstable/podp1",
          Map.of(RdtClassChoice.CRI_RESMGR_KEY + "/pod", "silver"));
  private static final Pod PLAIN = FakeNode.pod("p2", "/kubepods/burstable/podp2", Map.of());
  private static final Assignment POLICY =
      new Assignment(CpuSet.EMPTY, CpuSet.EMPTY, 0, 0, 0, 0, Map.of(), "bronze", "");

  private static Container container(Assignment a) {
    return FakeNode.containerBuilder("p1", "app").qos(QosClass.BURSTABLE).assignment(a).build();
  }

  private static Adjustment adjustment(String rdt, String blockio) {
    return new Adjustment("tune", Optional.empty(), rdt, blockio, OptionalLong.empty());
  }

  @Test
  void theAdjustmentsClassWins() {
    Container c = container(POLICY).withAdjustment(adjustment("gold", ""));
    RdtClassChoice expected = new RdtClassChoice("gold", "adjustment tune");
    assertEquals(expected, RdtController.choice(c, ANNOTATED));
    assertEquals(
        expected,
        RdtController.choice(c.withAssignment(Assignment.NONE, java.util.Set.of()), PLAIN));
  }

  @Test
  void withoutAnAdjustmentClassThePolicyAnnotationAndQosDecideAsBefore() {
    // An adjustment that sets only the block I/O class does not touch the RDT choice.
    Adjustment other = adjustment("", "slow");
    for (Adjustment a : new Adjustment[] {Adjustment.NONE, other}) {
      assertEquals(
          new RdtClassChoice("bronze", RdtController.POLICY_SOURCE),
          RdtController.choice(container(POLICY).withAdjustment(a), ANNOTATED));
      assertEquals(
          new RdtClassChoice("silver", RdtClassChoice.CRI_RESMGR_KEY + "/pod"),
          RdtController.choice(container(Assignment.NONE).withAdjustment(a), ANNOTATED));
      assertEquals(
          new RdtClassChoice("Burstable", "qos class"),
          RdtController.choice(container(Assignment.NONE).withAdjustment(a), PLAIN));
    }
  }
}
