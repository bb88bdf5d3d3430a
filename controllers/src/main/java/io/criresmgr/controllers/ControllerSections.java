package io.criresmgr.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.controllers.blockio.BlockIoConfig;
import io.criresmgr.controllers.cpu.CpuConfig;
import io.criresmgr.controllers.memoryqos.MemoryQosConfig;
import io.criresmgr.controllers.memtierd.MemtierdConfig;
import io.criresmgr.controllers.rdt.RdtConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The top-level configuration sections that belong to controllers, and their validation. The
 * configuration loader validates them here so that a bad section refuses the whole configuration
 * before anything is applied; the controllers parse them again when they (re)start.
 */
public final class ControllerSections {
  private static final Map<String, Consumer<JsonNode>> VALIDATORS = validators();

  private ControllerSections() {}

  private static Map<String, Consumer<JsonNode>> validators() {
    Map<String, Consumer<JsonNode>> v = new LinkedHashMap<>();
    v.put(CpuConfig.SECTION, CpuConfig::parse);
    v.put(RdtConfig.SECTION, RdtConfig::parse);
    v.put("blockio", BlockIoConfig::parse);
    v.put(MemoryQosConfig.SECTION, MemoryQosConfig::parse);
    v.put(MemtierdConfig.SECTION, MemtierdConfig::parse);
    return v;
  }

  /** The section names, in the documented order. */
  public static List<String> names() {
    return List.copyOf(VALIDATORS.keySet());
  }

  /**
   * Checks section {@code name}.
   *
   * @throws ControllerException naming the path, the value and what is allowed
   * @throws IllegalArgumentException if {@code name} is not a controller section
   */
  public static void validate(String name, JsonNode section) {
    Consumer<JsonNode> validator = VALIDATORS.get(name);
    if (validator == null) {
      throw new IllegalArgumentException("not a controller section: " + name);
    }
    validator.accept(section);
  }
}
