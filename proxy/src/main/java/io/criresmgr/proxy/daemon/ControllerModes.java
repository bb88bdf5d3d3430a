package io.criresmgr.proxy.daemon;

import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.proxy.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Filters {@code resource-manager.control.Controllers} down to the controllers this build has.
 * cri-resmgr's {@code memory} (top-tier soft limit) and {@code page-migration} controllers do not
 * exist here yet: configurations naming them keep loading, with a warning, unless they require one.
 */
final class ControllerModes {
  /** Controllers of cri-resmgr that this build does not have yet. */
  static final List<String> PLANNED = List.of("memory", "page-migration");

  private static final Logger LOG = LoggerFactory.getLogger(ControllerModes.class);

  private ControllerModes() {}

  /**
   * The modes of available controllers.
   *
   * @throws ConfigException if a planned controller is required
   */
  static Map<String, ControllerMode> available(
      Map<String, ControllerMode> configured, List<String> available) {
    Map<String, ControllerMode> result = new LinkedHashMap<>();
    configured.forEach(
        (name, mode) -> {
          if (available.contains(name) || !PLANNED.contains(name)) {
            result.put(name, mode);
          } else if (mode == ControllerMode.REQUIRED) {
            throw new ConfigException(
                "resource-manager.control.Controllers."
                    + name
                    + ": required, but this version of cri-resmgr has no "
                    + name
                    + " controller (available: "
                    + String.join(", ", available)
                    + ")");
          } else if (mode != ControllerMode.DISABLED) {
            LOG.warn("controller {} ({}) is not available in this version; ignored", name, mode);
          }
        });
    return result;
  }
}
