package io.criresmgr.controllers;

import io.criresmgr.cache.Container;

/**
 * Enforces policy decisions in one domain (CRI requests, cgroups, RDT, block I/O, ...). Hooks run
 * on the pipeline thread in name order and must be quick: a controller that talks to something slow
 * queues the work and returns. A hook signals failure with {@link ControllerException}; the
 * controller's {@link ControllerMode} decides whether that fails the request.
 */
public interface Controller {
  /** Unique name, the key in {@code resource-manager.control.Controllers}. */
  String name();

  /**
   * Prepares the controller to run on this host.
   *
   * @throws ControllerException if it cannot (e.g. resctrl is not mounted)
   */
  default void start(ControllerContext context) {}

  /** Stops the controller; it may be started again. */
  default void stop() {}

  /** Before CreateContainer goes to the runtime: edit the request for {@code container}. */
  default void preCreate(Container container, ContainerEdits edits) {}

  /** After the runtime started {@code container}. */
  default void postStart(Container container) {}

  /** After {@code container}'s assignment changed while it exists in the runtime. */
  default void postUpdate(Container container) {}

  /** After {@code container} stopped, exited or vanished and its resources were released. */
  default void postStop(Container container) {}
}
