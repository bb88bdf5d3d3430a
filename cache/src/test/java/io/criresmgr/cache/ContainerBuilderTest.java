package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Container.Builder}: its defaults, the fields it requires, and copies that keep the rest.
 */
class ContainerBuilderTest {
  private static final List<TopologyHint> HINTS =
      List.of(new TopologyHint("/dev/vfio/7", CpuSet.parse("0-7"), CpuSet.of(0)));

  private static Container.Builder minimal() {
    return Container.builder()
        .cacheId("u1:app")
        .podId("sandbox-u1")
        .name("app")
        .namespace("default")
        .image("busybox")
        .state(ContainerState.CREATING)
        .resources(Resources.NONE)
        .qosClass(QosClass.BEST_EFFORT);
  }

  @Test
  void aNewBuilderDescribesAContainerNotCreatedYet() {
    Container c = minimal().build();
    assertEquals("", c.id());
    assertEquals(false, c.initContainer());
    assertEquals(Map.of(), c.labels());
    assertEquals(Map.of(), c.annotations());
    assertEquals(LinuxResources.NONE, c.requested());
    assertEquals(Assignment.NONE, c.assignment());
    assertEquals(Set.of(), c.pending());
    assertEquals(0, c.seq());
    assertEquals(Adjustment.NONE, c.adjustment());
    assertEquals(List.of(), c.topologyHints());
  }

  @Test
  void aFieldWithoutDefaultMustBeSet() {
    Container.Builder withoutState =
        Container.builder()
            .cacheId("u1:app")
            .podId("sandbox-u1")
            .name("app")
            .namespace("default")
            .image("busybox")
            .resources(Resources.NONE)
            .qosClass(QosClass.BEST_EFFORT);
    NullPointerException e = assertThrows(NullPointerException.class, withoutState::build);
    assertEquals("Container.state not set", e.getMessage());
  }

  @Test
  void toBuilderKeepsEveryField() {
    Container c =
        Fixtures.container("u1", "app", "c1", 7)
            .withAssignment(Fixtures.fullAssignment(), Set.of("cri"))
            .withTopologyHints(HINTS);
    assertEquals(c, c.toBuilder().build());
  }

  @Test
  void everyCopyKeepsTheTopologyHints() {
    Container c = minimal().initContainer(true).topologyHints(HINTS).build();
    assertEquals(HINTS, c.withInitContainer(false).topologyHints());
    assertEquals(HINTS, c.withId("c1").topologyHints());
    assertEquals(HINTS, c.withState(ContainerState.RUNNING).topologyHints());
    assertEquals(HINTS, c.withAssignment(Assignment.NONE, Set.of("cri")).topologyHints());
    assertEquals(HINTS, c.withoutPending("cri").topologyHints());
    assertEquals(HINTS, c.withRequested(LinuxResources.NONE, Resources.NONE).topologyHints());
  }

  @Test
  void pendingCopiesShareNothingMutableAndIterateSorted() {
    Set<String> given = new java.util.HashSet<>(Set.of("rdt", "cri"));
    Container c = minimal().pending(given).build();
    given.add("blockio");
    assertEquals(List.of("cri", "rdt"), List.copyOf(c.pending()), "the builder's set was copied");
    assertThrows(UnsupportedOperationException.class, () -> c.pending().add("x"));

    Container marked = c.withAssignment(Assignment.of(CpuSet.of(1), CpuSet.EMPTY), Set.of("cpu"));
    Container cleared = marked.withoutPending("cri");
    assertEquals(List.of("cri", "rdt"), List.copyOf(c.pending()), "the original is unchanged");
    assertEquals(List.of("cpu", "cri", "rdt"), List.copyOf(marked.pending()));
    assertEquals(List.of("cpu", "rdt"), List.copyOf(cleared.pending()));
    assertEquals(Set.of("cpu", "rdt"), cleared.pending());
    assertEquals(cleared.pending(), Set.of("rdt", "cpu"));
    assertEquals(marked, marked.withoutPending("blockio"), "not pending: the same container");
    assertEquals(c.pending(), c.withAssignment(Assignment.NONE, Set.of("rdt")).pending());
  }
}
