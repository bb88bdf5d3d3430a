package io.criresmgr.controllers.cpu;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerSection;
import java.util.Optional;

/** Registers the {@code cpu} controller and its configuration section {@code cpu}. */
public final class CpuControllerProvider implements ControllerProvider {
  private static final ControllerSection<CpuConfig> SECTION =
      new ControllerSection<>(
          CpuConfig.SECTION,
          """
          CPU frequency classes of the cpu controller (docs/controllers/cpu.md).
            classes  <name>: minFreq, maxFreq, uncoreMinFreq, uncoreMaxFreq (kHz),
                     energyPerformancePreference (accepted, not enforced)""",
          CpuConfig::parse);

  @Override
  public String name() {
    return CpuController.NAME;
  }

  @Override
  public Optional<ControllerSection<?>> section() {
    return Optional.of(SECTION);
  }

  @Override
  public Controller create() {
    return new CpuController();
  }
}
