package io.criresmgr.controllers.rdt;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerSection;
import java.util.Optional;

/** Registers the {@code rdt} controller and its configuration section {@code rdt}. */
public final class RdtControllerProvider implements ControllerProvider {
  private static final ControllerSection<RdtConfig> SECTION =
      new ControllerSection<>(
          RdtConfig.SECTION,
          """
          RDT (resctrl) of the rdt controller (docs/controllers/rdt.md).
            options     mode (Full, Discovery, Disabled), l2/l3/mb optional, nriClasses, ...
            partitions  <name>: l2Allocation, l3Allocation, mbAllocation, classes""",
          RdtConfig::parse);

  @Override
  public String name() {
    return RdtController.NAME;
  }

  @Override
  public Optional<ControllerSection<?>> section() {
    return Optional.of(SECTION);
  }

  @Override
  public Controller create() {
    return new RdtController();
  }
}
