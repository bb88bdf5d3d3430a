package io.criresmgr.policy.topologyaware;

/** Which CPUs a request draws from. */
public enum CpuKind {
  /** Exclusive, isolated or shared CPUs of a scored pool. */
  NORMAL,
  /** The reserved CPUs (kube-system, reserved namespaces, {@code prefer-reserved-cpus}). */
  RESERVED,
  /** {@code cpu.preserve}: the container's cpuset is left as kubelet set it. */
  PRESERVE
}
