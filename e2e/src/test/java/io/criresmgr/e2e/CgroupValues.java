package io.criresmgr.e2e;

import java.util.Objects;

/**
 * What runc wrote into a container's cgroup files, by {@link CgroupVersion}.
 *
 * @param cpusetCpus {@code cpuset.cpus}
 * @param memoryLimit {@code memory.limit_in_bytes} (v1) or {@code memory.max} (v2)
 * @param cpu {@code cpu.shares} (v1) or {@code cpu.weight} (v2)
 */
record CgroupValues(String cpusetCpus, String memoryLimit, String cpu) {
  CgroupValues {
    Objects.requireNonNull(cpusetCpus, "cpusetCpus");
    Objects.requireNonNull(memoryLimit, "memoryLimit");
    Objects.requireNonNull(cpu, "cpu");
  }

  /** What a node of {@code version} shows for {@code cpus}, a limit in bytes and CPU shares. */
  static CgroupValues of(CgroupVersion version, String cpus, long memoryLimit, long shares) {
    return new CgroupValues(cpus, Long.toString(memoryLimit), version.cpu(shares));
  }
}
