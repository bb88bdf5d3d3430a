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
}
