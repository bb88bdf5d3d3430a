package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.ResourceOverride.Amounts;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdjustmentTest {
  private static final Resources OWN = new Resources(500, 1000, 64 << 20, 128 << 20);

  private static Adjustment resources(Optional<Amounts> cpu, Optional<Amounts> memory) {
    return new Adjustment(
        "adj", Optional.of(new ResourceOverride(cpu, memory)), "", "", OptionalLong.empty());
  }

  @Test
  void aCpuOverrideKeepsTheMemory() {
    Adjustment a = resources(Optional.of(new Amounts(2000, 2000)), Optional.empty());
    assertEquals(new Resources(2000, 2000, 64 << 20, 128 << 20), a.applyTo(OWN));
  }

  @Test
  void aMemoryOverrideKeepsTheCpu() {
    Adjustment a = resources(Optional.empty(), Optional.of(new Amounts(1 << 30, 0)));
    assertEquals(new Resources(500, 1000, 1 << 30, 0), a.applyTo(OWN));
  }

  @Test
  void aFullOverrideReplacesBoth() {
    Adjustment a =
        resources(Optional.of(new Amounts(250, 0)), Optional.of(new Amounts(1 << 20, 2 << 20)));
    assertEquals(new Resources(250, 0, 1 << 20, 2 << 20), a.applyTo(OWN));
  }

  @Test
  void noneAndClassesOnlyKeepTheResources() {
    assertSame(OWN, Adjustment.NONE.applyTo(OWN));
    Adjustment classes = new Adjustment("c", Optional.empty(), "gold", "", OptionalLong.of(0));
    assertSame(OWN, classes.applyTo(OWN));
    assertTrue(Adjustment.NONE.isNone());
    assertFalse(classes.isNone());
  }

  @Test
  void onlyANamedAdjustmentOverrides() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Adjustment("", Optional.empty(), "gold", "", OptionalLong.empty()));
    assertEquals("an adjustment that overrides anything needs a name", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new Adjustment("", Optional.empty(), "", "", OptionalLong.of(1)));
    assertEquals(
        Adjustment.NONE, new Adjustment("", Optional.empty(), "", "", OptionalLong.empty()));
  }

  @Test
  void aNegativeToptierLimitIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Adjustment("t", Optional.empty(), "", "", OptionalLong.of(-1)));
    assertEquals("toptierLimit: -1 is negative", e.getMessage());
  }

  @Test
  void amountsAreValidated() {
    assertEquals(
        "negative amount: request -1, limit 0",
        assertThrows(IllegalArgumentException.class, () -> new Amounts(-1, 0)).getMessage());
    assertEquals(
        "negative amount: request 0, limit -5",
        assertThrows(IllegalArgumentException.class, () -> new Amounts(0, -5)).getMessage());
    assertEquals(
        "the limit 100 is below the request 200",
        assertThrows(IllegalArgumentException.class, () -> new Amounts(200, 100)).getMessage());
    assertEquals(200, new Amounts(200, 0).request()); // 0: no limit
    assertEquals(200, new Amounts(200, 200).limit());
  }

  @Test
  void anOverrideNamesAResource() {
    assertEquals(
        "resources: names neither cpu nor memory",
        assertThrows(
                IllegalArgumentException.class,
                () -> new ResourceOverride(Optional.empty(), Optional.empty()))
            .getMessage());
  }

  @Test
  void aContainerPlacesByItsAdjustedResources() {
    Container c = Fixtures.container("u1", "app", "c1", 1);
    assertSame(Adjustment.NONE, c.adjustment());
    assertEquals(c.resources(), c.adjustedResources());
    Adjustment a = resources(Optional.of(new Amounts(2000, 2000)), Optional.empty());
    Container adjusted = c.withAdjustment(a);
    assertEquals(a, adjusted.adjustment());
    assertEquals(new Resources(2000, 2000, 0, 128 << 20), adjusted.adjustedResources());
    // What the pod asked for stays, so removing the adjustment restores it.
    assertEquals(c.resources(), adjusted.resources());
    assertEquals(c, adjusted.withAdjustment(Adjustment.NONE));
  }

  @Test
  void copiesKeepTheAdjustment() {
    Adjustment a = new Adjustment("cls", Optional.empty(), "gold", "slow", OptionalLong.empty());
    Container c = Fixtures.container("u1", "app", "c1", 1).withAdjustment(a);
    assertEquals(a, c.withState(ContainerState.EXITED).adjustment());
    assertEquals(a, c.withId("c2").adjustment());
    assertEquals(a, c.withAssignment(Fixtures.fullAssignment(), Set.of("rdt")).adjustment());
    assertEquals(
        a, c.withAssignment(Assignment.NONE, Set.of("rdt")).withoutPending("rdt").adjustment());
    assertEquals(a, c.withRequested(LinuxResources.NONE, Resources.NONE).adjustment());
  }
}
