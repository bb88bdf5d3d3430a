package io.criresmgr.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.policy.none.NonePolicyProvider;
import io.criresmgr.policy.template.TemplatePolicyProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyRegistryTest {
  @Test
  void builtInPoliciesInRegistrationOrder() {
    assertEquals(
        List.of("none", "memory-qos", "template", "topology-aware", "memtier", "balloons"),
        BuiltInPolicies.registry().names());
  }

  @Test
  void findsAndRequiresProvidersByName() {
    NonePolicyProvider none = new NonePolicyProvider();
    PolicyRegistry registry = new PolicyRegistry(List.of(none, new TemplatePolicyProvider()));
    assertSame(none, registry.require("none"));
    assertSame(none, registry.find("none").orElseThrow());
    assertTrue(registry.find("balloons").isEmpty());
    assertEquals(2, registry.all().size());
  }

  @Test
  void anUnknownNameIsRejectedWithTheKnownOnes() {
    PolicyException e =
        assertThrows(PolicyException.class, () -> BuiltInPolicies.registry().require("podpools"));
    assertEquals(
        "unknown policy \"podpools\", expected one of none, memory-qos, template,"
            + " topology-aware, memtier, balloons",
        e.getMessage());
  }

  @Test
  void duplicateNamesAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new PolicyRegistry(List.of(new NonePolicyProvider(), new NonePolicyProvider())));
    assertEquals("duplicate policy name \"none\"", e.getMessage());
  }
}
