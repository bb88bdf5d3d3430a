package io.criresmgr.simulator;

import io.criresmgr.cache.CpuSet;
import java.util.Objects;

/**
 * A device of a scenario's fake host (docs/scenarios.md, "Devices"): where it sits, written into
 * sysfs by {@link HostTree} through {@code FakeDevices}.
 *
 * @param numa its {@code numa_node}, -1 for none
 * @param cpus its {@code local_cpulist}, empty for none
 */
record HostDevice(int numa, CpuSet cpus) {
  /** Checks the values. */
  HostDevice {
    Objects.requireNonNull(cpus, "cpus");
    if (numa < -1) {
      throw new IllegalArgumentException("numa: " + numa + ": expected a node id or -1");
    }
  }
}
