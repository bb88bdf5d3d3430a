package io.criresmgr.cache.adjustment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.ResourceOverride;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdjustmentSetTest {
  private static final Pod POD = Workload.pod("web-1", "shop", Map.of(), QosClass.BURSTABLE);
  private static final Container NGINX = Workload.container(POD, "nginx");
  private static final Pod BE_POD = Workload.pod("batch", "jobs", Map.of(), QosClass.BEST_EFFORT);
  private static final Container WORKER = Workload.container(BE_POD, "worker");

  /** An adjustment set on node-1 from {@code json} (single quotes for double). */
  private static AdjustmentSet set(String json) throws AdjustmentException {
    return AdjustmentParser.parse("node-1", json.replace('\'', '"'));
  }

  @Test
  void noMatchingAdjustmentIsNone() throws Exception {
    assertSame(Adjustment.NONE, AdjustmentSet.EMPTY.resolve(NGINX, POD));
    AdjustmentSet elsewhere =
        set(
            "{'other-node': {'scope': [{'nodes': ['node-2']}], 'classes': {'rdt': 'gold'}},"
                + " 'other-ctr': {'scope': [{'containers': [{'key': 'name', 'operator': 'Equals',"
                + " 'values': ['db']}]}], 'classes': {'rdt': 'gold'}}}");
    assertEquals(List.of(), elsewhere.matching(NGINX, POD));
    assertSame(Adjustment.NONE, elsewhere.resolve(NGINX, POD));
  }

  @Test
  void oneMatchingAdjustmentIsItsEffect() throws Exception {
    AdjustmentSet s =
        set(
            "{'fast': {'scope': [{'nodes': ['node-*'], 'containers': [{'key': 'name',"
                + " 'operator': 'In', 'values': ['nginx', 'db']}]}],"
                + " 'resources': {'limits': {'cpu': '2'}}, 'classes': {'blockio': 'slow'}},"
                + " 'other': {'scope': [{'nodes': ['node-2']}], 'classes': {'rdt': 'gold'}}}");
    Adjustment a = s.resolve(NGINX, POD);
    assertEquals(s.specs().get("fast").effect(), a);
    assertEquals("fast", a.name());
    assertEquals("slow", a.blockIoClass());
    assertEquals(
        java.util.Optional.of(new ResourceOverride.Amounts(2000, 2000)),
        a.resources().orElseThrow().cpu());
  }

  @Test
  void twoMatchingAdjustmentsConflictNamingBothSorted() throws Exception {
    AdjustmentSet s =
        set(
            "{'zeta': {'scope': [{}], 'classes': {'rdt': 'gold'}},"
                + " 'alpha': {'scope': [{'nodes': ['node-1']}], 'classes': {'blockio': 'x'}}}");
    assertEquals(
        List.of("alpha", "zeta"),
        s.matching(NGINX, POD).stream().map(AdjustmentSpec::name).toList());
    AdjustmentException e = assertThrows(AdjustmentException.class, () -> s.resolve(NGINX, POD));
    assertEquals(
        "conflicting adjustments for shop/web-1:nginx: alpha, zeta;"
            + " at most one may apply to a container",
        e.getMessage());
    assertFalse(e.undecodable());
  }

  @Test
  void resourcesOfABestEffortContainerCannotBeAdjusted() throws Exception {
    AdjustmentSet s =
        set("{'grow': {'scope': [{}], 'resources': {'requests': {'memory': '1Gi'}}}}");
    AdjustmentException e =
        assertThrows(AdjustmentException.class, () -> s.resolve(WORKER, BE_POD));
    assertEquals(
        "adjustment grow: jobs/batch:worker is BestEffort; its resources cannot be adjusted"
            + " (narrow the scope or drop resources)",
        e.getMessage());
    assertFalse(e.undecodable());
    assertEquals("grow", s.resolve(NGINX, POD).name());
  }

  @Test
  void classesOfABestEffortContainerCanBeAdjusted() throws Exception {
    AdjustmentSet s =
        set("{'cls': {'scope': [{}], 'classes': {'rdt': 'bronze'}, 'toptierLimit': '1Gi'}}");
    Adjustment a = s.resolve(WORKER, BE_POD);
    assertEquals("cls", a.name());
    assertEquals("bronze", a.rdtClass());
  }

  @Test
  void theSpecsAreSortedByName() {
    AdjustmentSpec b = new AdjustmentSpec(Adjustment.NONE, List.of());
    AdjustmentSet s = new AdjustmentSet("n", Map.of("b", b, "a", b, "c", b));
    assertEquals(List.of("a", "b", "c"), List.copyOf(s.specs().keySet()));
  }
}
