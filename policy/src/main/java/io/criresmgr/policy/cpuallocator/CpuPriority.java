package io.criresmgr.policy.cpuallocator;

/** CPU priority classes (from core types, base frequencies or EPP); {@link #NONE} ignores them. */
public enum CpuPriority {
  /** Faster CPUs. */
  HIGH,
  /** Ordinary CPUs. */
  NORMAL,
  /** Slower CPUs. */
  LOW,
  /** No preference. */
  NONE
}
