package io.criresmgr.e2e;

/**
 * The cgroup version of a bed's node, which decides the files a container's CPU and memory values
 * are in and how CPU shares show: this host is v1 (hybrid), the VM bed pure v2.
 */
enum CgroupVersion {
  /**
   * {@code cpuset.cpus}, {@code memory.limit_in_bytes}, {@code cpu.shares} in their hierarchies.
   */
  V1,
  /** {@code cpuset.cpus}, {@code memory.max}, {@code cpu.weight} in the one hierarchy. */
  V2;

  /**
   * What the CPU file holds for CRI {@code shares}: the shares themselves on v1; on v2 the weight
   * runc (and Kubernetes) convert them to, {@code 1 + (shares - 2) * 9999 / 262142}.
   */
  String cpu(long shares) {
    return Long.toString(this == V1 ? shares : 1 + (shares - 2) * 9999 / 262_142);
  }
}
