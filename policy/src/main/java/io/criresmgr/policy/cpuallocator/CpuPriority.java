package io.criresmgr.policy.cpuallocator;

/** CPU priority classes (from core types, base frequencies or EPP); {@link #NONE} ignores them. */
public enum CpuPriority {
  /** Faster CPUs. */
  HIGH(0),
  /** Ordinary CPUs. */
  NORMAL(1),
  /** Slower CPUs. */
  LOW(2),
  /** No preference. */
  NONE(3);

  private final int rank;

  CpuPriority(int rank) {
    this.rank = rank;
  }

  /**
   * The place of this class from the fastest down: {@code HIGH} 0, {@code NORMAL} 1, {@code LOW} 2,
   * {@code NONE} 3. Arrays of counts or tables per priority are indexed by it; it is also the value
   * of {@code AllocatorPriority} in the balloons policy's configuration and views.
   */
  public int rank() {
    return rank;
  }
}
