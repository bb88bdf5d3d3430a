package io.criresmgr.proxy.daemon;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.blockio.BlockIoController;
import io.criresmgr.controllers.cgroups.CgroupsController;
import io.criresmgr.controllers.cpu.CpuController;
import io.criresmgr.controllers.memoryqos.MemoryQosController;
import io.criresmgr.controllers.memtierd.MemtierdController;
import io.criresmgr.controllers.rdt.RdtController;
import java.util.ArrayList;
import java.util.List;

/**
 * The host controllers of the daemon, besides the CRI controller the pipeline always has: each
 * enforces one kind of decision on the host (cgroup files, memory QoS, memtierd, RDT, block I/O,
 * CPU frequencies). Fresh instances per daemon.
 */
final class HostControllers {
  private HostControllers() {}

  /** New instances of every host controller. */
  static List<Controller> create() {
    List<Controller> all = new ArrayList<>();
    all.add(new RdtController());
    all.add(new BlockIoController());
    all.add(new MemtierdController());
    all.add(new MemoryQosController());
    all.add(new CpuController());
    all.add(new CgroupsController());
    return List.copyOf(all);
  }
}
