package io.criresmgr.controllers.blockio;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerSection;
import java.util.Optional;

/** Registers the {@code blockio} controller and its configuration section {@code blockio}. */
public final class BlockIoControllerProvider implements ControllerProvider {
  private static final ControllerSection<BlockIoConfig> SECTION =
      new ControllerSection<>(
          BlockIoConfig.SECTION,
          """
          Block I/O classes of the blockio controller (docs/controllers/blockio.md).
            Classes     <name>: list of Devices, Weight, ThrottleRead/WriteBps/IOPS
            NriClasses  classes NRI mode sends to the runtime (docs/nri.md)""",
          BlockIoConfig::parse);

  @Override
  public String name() {
    return BlockIoController.NAME;
  }

  @Override
  public Optional<ControllerSection<?>> section() {
    return Optional.of(SECTION);
  }

  @Override
  public Controller create() {
    return new BlockIoController();
  }
}
