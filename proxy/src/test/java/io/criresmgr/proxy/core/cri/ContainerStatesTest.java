package io.criresmgr.proxy.core.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.ContainerState;
import org.junit.jupiter.api.Test;

class ContainerStatesTest {
  private static final io.criresmgr.api.runtime.v1.ContainerState CRI_CREATED =
      io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED;
  private static final io.criresmgr.api.runtime.v1.ContainerState CRI_RUNNING =
      io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING;
  private static final io.criresmgr.api.runtime.v1.ContainerState CRI_EXITED =
      io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED;
  private static final io.criresmgr.api.runtime.v1.ContainerState CRI_UNKNOWN =
      io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_UNKNOWN;

  @Test
  void runtimeStatesMapToCacheStates() {
    assertEquals(ContainerState.CREATED, ContainerStates.fromProto(CRI_CREATED));
    assertEquals(ContainerState.RUNNING, ContainerStates.fromProto(CRI_RUNNING));
    assertEquals(ContainerState.EXITED, ContainerStates.fromProto(CRI_EXITED));
  }

  @Test
  void unknownStatesHoldNoResources() {
    assertEquals(ContainerState.EXITED, ContainerStates.fromProto(CRI_UNKNOWN));
    assertEquals(
        ContainerState.EXITED,
        ContainerStates.fromProto(io.criresmgr.api.runtime.v1.ContainerState.UNRECOGNIZED));
  }

  @Test
  void cacheStatesMapBack() {
    assertEquals(CRI_CREATED, ContainerStates.toProto(ContainerState.CREATED));
    assertEquals(CRI_RUNNING, ContainerStates.toProto(ContainerState.RUNNING));
    assertEquals(CRI_EXITED, ContainerStates.toProto(ContainerState.EXITED));
    assertEquals(CRI_UNKNOWN, ContainerStates.toProto(ContainerState.CREATING));
    assertEquals(CRI_UNKNOWN, ContainerStates.toProto(ContainerState.STALE));
  }

  @Test
  void runtimeStatesSurviveARoundTrip() {
    for (var state :
        new io.criresmgr.api.runtime.v1.ContainerState[] {CRI_CREATED, CRI_RUNNING, CRI_EXITED}) {
      assertEquals(state, ContainerStates.toProto(ContainerStates.fromProto(state)));
    }
  }
}
