package io.criresmgr.controllers.memoryqos;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerSection;
import java.util.Optional;

/** Registers the {@code memory-qos} controller and its configuration section {@code memory-qos}. */
public final class MemoryQosControllerProvider implements ControllerProvider {
  private static final ControllerSection<MemoryQosConfig> SECTION =
      new ControllerSection<>(
          MemoryQosConfig.SECTION,
          """
          Memory QoS classes of the memory-qos controller (docs/controllers/memory-qos.md).
            classes             list of name, swaplimitratio (0.0-1.0)
            unifiedannotations  cgroup v2 files direct annotations may set""",
          MemoryQosConfig::parse);

  @Override
  public String name() {
    return MemoryQosController.NAME;
  }

  @Override
  public Optional<ControllerSection<?>> section() {
    return Optional.of(SECTION);
  }

  @Override
  public Controller create() {
    return new MemoryQosController();
  }
}
