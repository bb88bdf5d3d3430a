package io.criresmgr.proxy.daemon;

import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.cgroups.CgroupsController;
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
    all.add(new CgroupsController());
    return List.copyOf(all);
  }
}
