package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AdjustmentScopeTest {
  private static AdjustmentScope nodes(String... nodes) {
    return new AdjustmentScope(List.of(nodes), List.of());
  }

  private static AdjustmentSpec spec(AdjustmentScope... scope) {
    return new AdjustmentSpec(
        List.of(scope), Map.of(), Map.of(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  @Test
  void aNameMatchesExactly() {
    assertTrue(nodes("n1", "n2").matchesNode("n2"));
    assertFalse(nodes("n1").matchesNode("n10"));
    assertFalse(nodes("n1").matchesNode("n"));
  }

  @Test
  void aTrailingStarMatchesByPrefix() {
    assertTrue(nodes("worker-*").matchesNode("worker-1"));
    assertTrue(nodes("worker-*").matchesNode("worker-"));
    assertFalse(nodes("worker-*").matchesNode("master-1"));
    assertTrue(nodes("*").matchesNode("anything"));
    assertFalse(nodes("w*rker").matchesNode("worker"), "only a trailing '*' is a pattern");
  }

  @Test
  void noNodesMeansEveryNode() {
    assertTrue(nodes().matchesNode("n1"));
  }

  @Test
  void anAdjustmentIsInScopeWhenAnyEntryMatches() {
    AdjustmentSpec spec = spec(nodes("a"), nodes("b*"));
    assertTrue(spec.isInScope("b1"));
    assertFalse(spec.isInScope("c"));
    assertFalse(spec().isInScope("a"), "an empty scope matches nothing");
  }

  @Test
  void forNodeKeepsOnlyTheMatchingEntries() {
    AdjustmentSpec spec = spec(nodes("a"), nodes("b*"), nodes());
    assertEquals(spec(nodes("b*"), nodes()), spec.forNode("b1"));
  }

  @Test
  void anUnknownOperatorIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ContainerExpression("name", "Equal", List.of("x")));
    assertTrue(e.getMessage().startsWith("invalid operator \"Equal\": expected one of Equals,"));
  }
}
