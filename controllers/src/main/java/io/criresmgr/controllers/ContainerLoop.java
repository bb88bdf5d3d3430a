package io.criresmgr.controllers;

import io.criresmgr.cache.Container;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Applies a controller's action to each of several containers, as {@link Controller#start} and
 * {@link Controller#reconfigure} do for every active container: one container's failure is handed
 * to the caller (to log it) and does not stop the others.
 */
public final class ContainerLoop {
  private ContainerLoop() {}

  /**
   * Runs {@code action} for each of {@code containers} in order; a {@link ControllerException} it
   * throws goes to {@code onFailure} with the container, and the loop goes on.
   */
  public static void applyToEach(
      Iterable<Container> containers,
      Consumer<Container> action,
      BiConsumer<Container, ControllerException> onFailure) {
    for (Container c : containers) {
      try {
        action.accept(c);
      } catch (ControllerException e) {
        onFailure.accept(c, e);
      }
    }
  }
}
