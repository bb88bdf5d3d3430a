package io.criresmgr.proxy.daemon;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.blockio.BlockIoController;
import io.criresmgr.controllers.cgroups.CgroupsController;
import io.criresmgr.controllers.cpu.CpuController;
import io.criresmgr.controllers.memoryqos.MemoryQosController;
import io.criresmgr.controllers.memtierd.MemtierdController;
import io.criresmgr.controllers.rdt.RdtController;
import java.util.List;

/**
 * The host controllers of the daemon, besides the CRI controller the pipeline always has: each
 * enforces one kind of decision on the host (cgroup files, memory QoS, memtierd, RDT, block I/O,
 * CPU frequencies). Fresh instances per daemon; the pipeline runs them in name order.
 */
final class HostControllers {
  private HostControllers() {}

  /** New instances of every host controller. */
  static List<Controller> create() {
    return List.of(
        new BlockIoController(),
        new CgroupsController(),
        new CpuController(),
        new MemoryQosController(),
        new MemtierdController(),
        new RdtController());
  }
}
