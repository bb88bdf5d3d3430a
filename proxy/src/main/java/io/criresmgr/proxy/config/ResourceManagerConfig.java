package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.controllers.ControllerMode;
import java.util.Map;

/**
 * Section {@code resource-manager}; its only child is {@code control}.
 *
 * @param controllers {@code resource-manager.control.Controllers}: mode per controller name
 * @param controlSections sub-sections of {@code resource-manager.control} (for now only {@code
 *     page-migration}), kept unparsed for their controllers (key: section name)
 */
public record ResourceManagerConfig(
    Map<String, ControllerMode> controllers, Map<String, JsonNode> controlSections) {
  /** Copies the maps. */
  public ResourceManagerConfig {
    controllers = Map.copyOf(controllers);
    controlSections = Map.copyOf(controlSections);
  }

  /** With controller modes only. */
  public ResourceManagerConfig(Map<String, ControllerMode> controllers) {
    this(controllers, Map.of());
  }

  /** No controller modes configured. */
  public static ResourceManagerConfig defaults() {
    return new ResourceManagerConfig(Map.of());
  }
}
