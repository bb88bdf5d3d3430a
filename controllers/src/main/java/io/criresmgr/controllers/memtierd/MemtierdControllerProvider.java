package io.criresmgr.controllers.memtierd;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerSection;
import java.util.Optional;

/** Registers the {@code memtierd} controller and its configuration section {@code memtierd}. */
public final class MemtierdControllerProvider implements ControllerProvider {
  private static final ControllerSection<MemtierdConfig> SECTION =
      new ControllerSection<>(
          MemtierdConfig.SECTION,
          """
          memtierd classes of the memtierd controller (docs/controllers/memtierd.md).
            classes  list of name, allowswap, memtierdconfig (template)
            binary   the memtierd executable, default memtierd
            rundir   per-container output, default /var/run/cri-resmgr/memtierd""",
          MemtierdConfig::parse);

  @Override
  public String name() {
    return MemtierdController.NAME;
  }

  @Override
  public Optional<ControllerSection<?>> section() {
    return Optional.of(SECTION);
  }

  @Override
  public Controller create() {
    return new MemtierdController();
  }
}
