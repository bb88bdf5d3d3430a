package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.proxy.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControllerModesTest {
  @Test
  void plannedControllersAreDroppedUnlessRequiredOthersPass() {
    Map<String, ControllerMode> configured = new LinkedHashMap<>();
    configured.put("cri", ControllerMode.REQUIRED);
    configured.put("page-migration", ControllerMode.OPTIONAL);
    configured.put("memory", ControllerMode.DISABLED);
    configured.put("typo", ControllerMode.RELAXED);
    assertEquals(
        Map.of("cri", ControllerMode.REQUIRED, "typo", ControllerMode.RELAXED),
        ControllerModes.available(configured, List.of("cri")));
  }

  @Test
  void aRequiredPlannedControllerIsAConfigurationError() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                ControllerModes.available(
                    Map.of("memory", ControllerMode.REQUIRED), List.of("cri", "rdt")));
    assertEquals(
        "resource-manager.control.Controllers.memory: required, but this version of cri-resmgr"
            + " has no memory controller (available: cri, rdt)",
        e.getMessage());
  }
}
