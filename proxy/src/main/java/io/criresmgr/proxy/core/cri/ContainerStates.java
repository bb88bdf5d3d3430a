package io.criresmgr.proxy.core.cri;

import io.criresmgr.cache.ContainerState;

/** Maps CRI container states to the cache's states and back. */
public final class ContainerStates {
  private ContainerStates() {}

  /**
   * The cache state of a container the runtime reports. {@code CONTAINER_UNKNOWN} (and values this
   * build does not know) become {@link ContainerState#EXITED}: such a container is not known to
   * run, and like cri-resmgr we only give resources to containers the runtime reports running.
   */
  public static ContainerState fromProto(io.criresmgr.api.runtime.v1.ContainerState state) {
    return switch (state) {
      case CONTAINER_CREATED -> ContainerState.CREATED;
      case CONTAINER_RUNNING -> ContainerState.RUNNING;
      case CONTAINER_EXITED, CONTAINER_UNKNOWN, UNRECOGNIZED -> ContainerState.EXITED;
    };
  }

  /**
   * The CRI state matching a cache state. {@link ContainerState#CREATING} (the runtime has not
   * answered yet) and {@link ContainerState#STALE} (gone from the runtime) have no CRI counterpart
   * and map to {@code CONTAINER_UNKNOWN}.
   */
  public static io.criresmgr.api.runtime.v1.ContainerState toProto(ContainerState state) {
    return switch (state) {
      case CREATED -> io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_CREATED;
      case RUNNING -> io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_RUNNING;
      case EXITED -> io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_EXITED;
      case CREATING, STALE -> io.criresmgr.api.runtime.v1.ContainerState.CONTAINER_UNKNOWN;
    };
  }
}
