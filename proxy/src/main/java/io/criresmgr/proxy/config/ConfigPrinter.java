package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Prints a {@link Config} as YAML in cri-resmgr's layout, every field included, so that {@link
 * ConfigLoader} reads back the same configuration ({@code cri-resmgr --print-config}).
 */
public final class ConfigPrinter {
  private ConfigPrinter() {}

  /** {@code config} as a YAML document. */
  public static String toYaml(Config config) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.set(PolicySection.NAME, PolicySection.write(config.policy()));
    root.set(ResourceManagerSection.NAME, ResourceManagerSection.write(config.resourceManager()));
    for (String name : ConfigLoader.CONTROLLER_SECTIONS) {
      if (config.controllerSections().containsKey(name)) {
        root.set(name, config.controllerSections().get(name));
      }
    }
    root.set(DumpSection.NAME, DumpSection.write(config.dump()));
    root.set(LoggerSection.NAME, LoggerSection.write(config.logger()));
    root.set(InstrumentationSection.NAME, InstrumentationSection.write(config.instrumentation()));
    return YamlTrees.write(root);
  }
}
