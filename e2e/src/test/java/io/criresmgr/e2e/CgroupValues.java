package io.criresmgr.e2e;

import java.util.Objects;

/**
 * What runc wrote into a container's cgroup v1 files on the host.
 *
 * @param cpusetCpus {@code cpuset/.../cpuset.cpus}
 * @param memoryLimit {@code memory/.../memory.limit_in_bytes}
 * @param cpuShares {@code cpu/.../cpu.shares}
 */
record CgroupValues(String cpusetCpus, String memoryLimit, String cpuShares) {
  CgroupValues {
    Objects.requireNonNull(cpusetCpus, "cpusetCpus");
    Objects.requireNonNull(memoryLimit, "memoryLimit");
    Objects.requireNonNull(cpuShares, "cpuShares");
  }
}
