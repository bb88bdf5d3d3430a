package io.criresmgr.controllers.builtin;

import io.criresmgr.controllers.ControllerRegistry;
import io.criresmgr.controllers.blockio.BlockIoControllerProvider;
import io.criresmgr.controllers.cgroups.CgroupsControllerProvider;
import io.criresmgr.controllers.cpu.CpuControllerProvider;
import io.criresmgr.controllers.memoryqos.MemoryQosControllerProvider;
import io.criresmgr.controllers.memtierd.MemtierdControllerProvider;
import io.criresmgr.controllers.rdt.RdtControllerProvider;
import java.util.List;

/**
 * The built-in host controllers, listed explicitly (no class-path scanning, no static
 * registration): add a new controller's provider here, in the order its configuration section is
 * documented. The pipeline runs controllers in name order whatever this order is. Kept apart from
 * the SPI so that the SPI package depends on no controller.
 */
public final class BuiltInControllers {
  private static final ControllerRegistry REGISTRY =
      new ControllerRegistry(
          List.of(
              new CpuControllerProvider(),
              new RdtControllerProvider(),
              new BlockIoControllerProvider(),
              new MemoryQosControllerProvider(),
              new MemtierdControllerProvider(),
              new CgroupsControllerProvider()));

  private BuiltInControllers() {}

  /** The registry of the built-in controllers. */
  public static ControllerRegistry registry() {
    return REGISTRY;
  }
}
