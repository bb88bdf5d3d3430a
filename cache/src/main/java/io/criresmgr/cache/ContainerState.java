package io.criresmgr.cache;

/**
 * Life-cycle state of a cached container. {@link #CREATING}: resources reserved, the runtime has
 * not answered CreateContainer yet. {@link #STALE}: gone from the runtime, about to be dropped.
 */
public enum ContainerState {
  CREATING,
  CREATED,
  RUNNING,
  EXITED,
  STALE;

  /** Whether the container holds resources (it is being created, created or running). */
  public boolean isActive() {
    return this == CREATING || this == CREATED || this == RUNNING;
  }
}
