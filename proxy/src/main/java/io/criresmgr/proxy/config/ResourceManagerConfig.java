package io.criresmgr.proxy.config;

import io.criresmgr.controllers.ControllerMode;
import java.util.Map;

/**
 * Section {@code resource-manager}; its only child is {@code control}.
 *
 * @param controllers {@code resource-manager.control.Controllers}: mode per controller name
 */
public record ResourceManagerConfig(Map<String, ControllerMode> controllers) {
  /** Copies the map. */
  public ResourceManagerConfig {
    controllers = Map.copyOf(controllers);
  }

  /** No controller modes configured. */
  public static ResourceManagerConfig defaults() {
    return new ResourceManagerConfig(Map.of());
  }
}
