package io.criresmgr.cache.adjustment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.affinity.Expression.Operator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdjustmentScopeTest {
  private static final Pod POD =
      Workload.pod("web-1", "shop", Map.of("app", "web"), QosClass.BURSTABLE);
  private static final Container NGINX = Workload.container(POD, "nginx");
  private static final Container SIDECAR = Workload.container(POD, "sidecar");

  private static AdjustmentScope nodes(String... nodes) {
    return new AdjustmentScope(List.of(nodes), List.of());
  }

  private static Expression expr(String key, Operator op, String... values) {
    return new Expression(key, op, List.of(values));
  }

  @Test
  void matchesNodesExactly() {
    AdjustmentScope s = nodes("worker-1", "worker-3");
    assertTrue(s.coversNode("worker-1"));
    assertTrue(s.coversNode("worker-3"));
    assertFalse(s.coversNode("worker-2"));
    assertFalse(s.coversNode("worker-10"));
    assertFalse(s.coversNode("worker"));
  }

  @Test
  void aTrailingStarMatchesByPrefix() {
    AdjustmentScope s = nodes("worker-*");
    assertTrue(s.coversNode("worker-1"));
    assertTrue(s.coversNode("worker-"));
    assertFalse(s.coversNode("worker"));
    assertFalse(s.coversNode("master-1"));
    // Only a trailing star is special.
    assertFalse(nodes("*-1").coversNode("worker-1"));
    assertTrue(nodes("*-1").coversNode("*-1"));
  }

  @Test
  void noNodesOrAStarAloneIsEveryNode() {
    assertTrue(nodes().coversNode("anything"));
    assertTrue(nodes().coversNode(""));
    assertTrue(nodes("*").coversNode("anything"));
  }

  @Test
  void noContainerExpressionsIsEveryContainer() {
    AdjustmentScope s = nodes();
    assertTrue(s.coversContainer(NGINX, POD));
    assertTrue(s.coversContainer(SIDECAR, POD));
  }

  @Test
  void anyContainerExpressionMatching() {
    AdjustmentScope s =
        new AdjustmentScope(
            List.of(),
            List.of(
                expr("name", Operator.EQUALS, "nginx"), expr("pod/labels/tier", Operator.EXISTS)));
    assertTrue(s.coversContainer(NGINX, POD));
    assertFalse(s.coversContainer(SIDECAR, POD));
    Pod tiered = Workload.pod("web-2", "shop", Map.of("tier", "front"), QosClass.BURSTABLE);
    assertTrue(s.coversContainer(Workload.container(tiered, "sidecar"), tiered));
  }

  @Test
  void expressionsSeeThePodAndNamespace() {
    AdjustmentScope s =
        new AdjustmentScope(
            List.of("n1"),
            List.of(
                expr("namespace", Operator.IN, "shop", "bank"),
                expr("pod/labels/app", Operator.EQUALS, "db")));
    assertTrue(s.coversContainer(SIDECAR, POD));
    Pod other = Workload.pod("db-1", "default", Map.of("app", "web"), QosClass.BURSTABLE);
    assertFalse(s.coversContainer(Workload.container(other, "db"), other));
  }

  @Test
  void aSpecAppliesWhenOneEntryCoversNodeAndContainer() {
    AdjustmentSpec spec =
        new AdjustmentSpec(
            io.criresmgr.cache.Adjustment.NONE,
            List.of(
                new AdjustmentScope(List.of("n1"), List.of(expr("name", Operator.EQUALS, "x"))),
                new AdjustmentScope(
                    List.of("n2"), List.of(expr("name", Operator.EQUALS, "nginx")))));
    // Node of one entry and container of the other do not combine.
    assertFalse(spec.appliesTo("n1", NGINX, POD));
    assertTrue(spec.appliesTo("n2", NGINX, POD));
    assertFalse(spec.appliesTo("n2", SIDECAR, POD));
  }
}
