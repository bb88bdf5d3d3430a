package io.criresmgr.policy.sysfs;

/** Hybrid CPU core classes (Intel P-cores and E-cores), where the kernel reports them. */
public enum CoreType {
  /** Not a hybrid CPU, or not reported. */
  UNKNOWN,
  /** A performance core ({@code /sys/devices/cpu_core/cpus}). */
  PERFORMANCE,
  /** An efficient core ({@code /sys/devices/cpu_atom/cpus}). */
  EFFICIENT
}
