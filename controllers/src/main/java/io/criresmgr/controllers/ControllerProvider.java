package io.criresmgr.controllers;

import java.util.Optional;

/**
 * A host controller's entry in the {@link ControllerRegistry}: its name, the configuration section
 * it reads and its factory (the shape of the policies' {@code PolicyProvider} and of grpc-java's
 * providers).
 */
public interface ControllerProvider {
  /** The controller's name, the key in {@code resource-manager.control.Controllers}. */
  String name();

  /** The top-level configuration section the controller reads, if it reads one. */
  Optional<ControllerSection<?>> section();

  /** A fresh controller; called once per daemon. */
  Controller create();
}
