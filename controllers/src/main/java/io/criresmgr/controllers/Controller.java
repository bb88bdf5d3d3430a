package io.criresmgr.controllers;

import io.criresmgr.cache.Container;

/**
 * Enforces policy decisions in one domain (CRI requests, cgroups, RDT, block I/O, ...). Hooks run
 * on the pipeline thread in name order and must be quick: a controller that talks to something slow
 * queues the work and returns. A hook signals failure with {@link ControllerException}; the
 * controller's {@link ControllerMode} decides whether that fails the request. Optional hooks are
 * interfaces of their own that a controller may implement as well ({@link CpuClassesListener}).
 */
public interface Controller {
  /** Unique name, the key in {@code resource-manager.control.Controllers}. */
  String name();

  /**
   * Prepares the controller to run on this host with the context's configuration, and brings the
   * containers of {@code context.node()} in line with it (they may predate a restart).
   *
   * @throws ControllerException if it cannot (e.g. resctrl is not mounted)
   */
  default void start(ControllerContext context) {}

  /**
   * The configuration changed while the controller runs: take the new sections and re-apply them to
   * every active container. A controller whose sections did not change returns quickly.
   *
   * @throws ControllerException if the new configuration cannot work; the caller then refuses it
   *     and calls this again with the previous context
   */
  default void reconfigure(ControllerContext context) {}

  /**
   * The controller does not run (the configuration disables it, or it could not start): release
   * what an earlier daemon left running for it (e.g. processes kept across a restart). Called at
   * every configuration while it does not run, so it must be idempotent and cheap when there is
   * nothing to release. Failures are logged, never refuse anything.
   */
  default void cleanUp(ControllerContext context) {}

  /** Stops the controller; it may be started again. */
  default void stop() {}

  /**
   * Before CreateContainer goes to the runtime: edit the request for {@code container}. Claimed
   * unified files become part of the container's request in the cache.
   */
  default void preCreate(Container container, ContainerEdits edits) {}

  /**
   * Before kubelet's UpdateContainerResources for {@code container} (already carrying kubelet's new
   * request; the policy decides after this hook) goes to the runtime: edit the request. Only
   * unified edits are used; they become part of the container's request in the cache.
   */
  default void preUpdate(Container container, ContainerEdits edits) {}

  /** After the runtime started {@code container}. */
  default void postStart(Container container) {}

  /** After {@code container}'s assignment changed while it exists in the runtime. */
  default void postUpdate(Container container) {}

  /** After {@code container} stopped, exited or vanished and its resources were released. */
  default void postStop(Container container) {}
}
