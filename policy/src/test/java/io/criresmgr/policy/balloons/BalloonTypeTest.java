package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BalloonTypeTest {
  @Test
  void namedGivesTheDefaultsAndCopiesCollections() {
    List<String> ns = new ArrayList<>(List.of("a"));
    BalloonType t = BalloonType.named("t").withBuiltIn(ns, 0, 0, CpuPriority.HIGH);
    ns.add("b");
    assertEquals(List.of("a"), t.namespaces());
    assertEquals(BalloonType.named("t").withBuiltIn(List.of("a"), 0, 0, CpuPriority.HIGH), t);
    assertTrue(BalloonType.named("reserved").isReserved());
    assertTrue(BalloonType.named("default").isDefault());
    assertFalse(BalloonType.named("other").isDefault());
  }

  @Test
  void unknownCoreTypeIsNoPreference() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BalloonType.builder("x").preferCoreType(CoreType.UNKNOWN).build());
    assertEquals(
        "balloon type \"x\": PreferCoreType must be performance or efficient", e.getMessage());
  }

  @Test
  void optionsRejectDuplicateTypesBuiltByCode() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                BalloonsOptions.builder()
                    .reservedPoolNamespaces(List.of())
                    .balloonTypes(List.of(BalloonType.named("a"), BalloonType.named("a")))
                    .build());
    assertEquals("balloon type \"a\": Name is used by more than one balloon type", e.getMessage());
  }
}
