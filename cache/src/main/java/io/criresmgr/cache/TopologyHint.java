package io.criresmgr.cache;

import java.util.Objects;

/**
 * Where a device a container uses sits in the machine, found by the daemon in sysfs when the
 * container is created (cri-resmgr's {@code topology.Hint}). Policies prefer CPUs and memory close
 * to it.
 *
 * @param provider the host path of the device or mount the hint comes from, e.g. {@code
 *     /dev/vfio/7}
 * @param cpus the device's {@code local_cpulist}; empty if sysfs does not say
 * @param numas the device's {@code numa_node}; empty if sysfs does not say
 */
public record TopologyHint(String provider, CpuSet cpus, CpuSet numas) {
  /** Checks for nulls. */
  public TopologyHint {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(numas, "numas");
  }

  /** Like {@code /dev/vfio/7 (CPUs 0-7, NUMA node 0)}. */
  public String describe() {
    StringBuilder b = new StringBuilder(provider).append(" (");
    if (!cpus.isEmpty()) {
      b.append("CPUs ").append(cpus);
    }
    if (!numas.isEmpty()) {
      b.append(cpus.isEmpty() ? "" : ", ").append("NUMA node ").append(numas);
    }
    return b.append(')').toString();
  }
}
