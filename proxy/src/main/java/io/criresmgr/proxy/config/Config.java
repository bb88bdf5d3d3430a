package io.criresmgr.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Objects;

/**
 * The whole daemon configuration, one record per top-level section of cri-resmgr's layout.
 *
 * @param policy section {@code policy}
 * @param resourceManager section {@code resource-manager}
 * @param dump section {@code dump}
 * @param logger section {@code logger}
 * @param instrumentation section {@code instrumentation}
 * @param controllerSections sections {@code cpu}, {@code rdt} and {@code blockio}, kept unparsed
 *     for their controllers (key: section name)
 */
public record Config(
    PolicyConfig policy,
    ResourceManagerConfig resourceManager,
    DumpConfig dump,
    LoggerConfig logger,
    InstrumentationConfig instrumentation,
    Map<String, JsonNode> controllerSections) {

  /** Checks that no section is null and copies the map. */
  public Config {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(resourceManager, "resourceManager");
    Objects.requireNonNull(dump, "dump");
    Objects.requireNonNull(logger, "logger");
    Objects.requireNonNull(instrumentation, "instrumentation");
    controllerSections = Map.copyOf(controllerSections);
  }

  /** The built-in defaults, used when no configuration file is given. */
  public static Config defaults() {
    return new Config(
        PolicyConfig.defaults(),
        ResourceManagerConfig.defaults(),
        DumpConfig.defaults(),
        LoggerConfig.defaults(),
        InstrumentationConfig.defaults(),
        Map.of());
  }
}
