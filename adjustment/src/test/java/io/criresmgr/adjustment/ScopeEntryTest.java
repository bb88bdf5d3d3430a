package io.criresmgr.adjustment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScopeEntryTest {
  private static ScopeEntry nodes(String... nodes) {
    return new ScopeEntry(List.of(nodes), List.of());
  }

  private static AdjustmentSpec spec(ScopeEntry... scope) {
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
  void anExpressionChecksItsValuesAgainstItsOperator() {
    assertEquals(
        "Equals takes exactly one value, got 2",
        assertThrows(
                IllegalArgumentException.class,
                () -> new ContainerExpression("name", Operator.EQUALS, List.of("x", "y")))
            .getMessage());
    assertEquals(
        "invalid pattern \"[a\": character class at 0 is empty, unterminated or has a bad range"
            + " (syntax: *, ?, [a-z], [^a-z], \\c)",
        assertThrows(
                IllegalArgumentException.class,
                () -> new ContainerExpression("name", Operator.MATCHES_ANY, List.of("ok*", "[a")))
            .getMessage());
  }

  @Test
  void anUnknownOperatorIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Operator.parse("Equal"));
    assertTrue(e.getMessage().startsWith("invalid operator \"Equal\": expected one of Equals,"));
  }
}
