package io.criresmgr.controllers.cgroups;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerProvider;
import io.criresmgr.controllers.ControllerSection;
import java.util.Optional;

/** Registers the {@code cgroups} controller; it has no configuration section. */
public final class CgroupsControllerProvider implements ControllerProvider {
  @Override
  public String name() {
    return CgroupsController.NAME;
  }

  @Override
  public Optional<ControllerSection<?>> section() {
    return Optional.empty();
  }

  @Override
  public Controller create() {
    return new CgroupsController();
  }
}
