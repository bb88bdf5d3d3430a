package io.criresmgr.policy.cpuallocator;

/**
 * How cri-resmgr compares two CPU sets by a preferred priority ({@code cmpCPUSet}): if both have at
 * least the wanted number of CPUs of the preferred priority, the tighter fit wins (or neither, on a
 * tie); otherwise the set with more CPUs of the preferred priority wins, then the one with more
 * CPUs of each lower priority in turn; after that, the one with fewer CPUs of each higher priority
 * (from the highest down). A set is given as its counts per priority, indexed by {@link
 * CpuPriority#rank()} (HIGH, NORMAL, LOW).
 */
final class PriorityOrder {
  /** The number of real priority classes (HIGH, NORMAL, LOW); {@code NONE} has this rank. */
  static final int CLASSES = 3;

  private PriorityOrder() {}

  /** {@link #compare(int[], int[], CpuPriority, int)} without a wanted number (no tight fit). */
  static int compare(int[] a, int[] b, CpuPriority prefer) {
    return compare(a, b, prefer, 0);
  }

  /**
   * Positive if {@code a} is preferred, negative if {@code b} is, 0 if neither.
   *
   * @param wanted the number of CPUs still wanted; 0 or less disables the tight-fit rule
   */
  static int compare(int[] a, int[] b, CpuPriority prefer, int wanted) {
    if (prefer == CpuPriority.NONE) {
      return 0;
    }
    int p = prefer.rank();
    if (wanted > 0 && a[p] >= wanted && b[p] >= wanted) {
      return b[p] - a[p];
    }
    for (int prio = p; prio < CLASSES; prio++) {
      if (a[prio] != b[prio]) {
        return a[prio] - b[prio];
      }
    }
    for (int prio = 0; prio < p; prio++) {
      if (a[prio] != b[prio]) {
        return b[prio] - a[prio];
      }
    }
    return 0;
  }

  /**
   * The rank of a single CPU of each priority class (index {@code CLASSES} for a CPU without one)
   * when preferring {@code prefer}: 0 is the best, equally good classes share a rank. This is
   * {@link #compare} applied to one-CPU sets, precomputed.
   */
  static int[] singleCpuRanks(CpuPriority prefer) {
    int[][] sets = new int[CLASSES + 1][CLASSES];
    for (int prio = 0; prio < CLASSES; prio++) {
      sets[prio][prio] = 1;
    }
    int[] ranks = new int[CLASSES + 1];
    for (int prio = 0; prio <= CLASSES; prio++) {
      for (int other = 0; other <= CLASSES; other++) {
        if (compare(sets[other], sets[prio], prefer) > 0) {
          ranks[prio]++;
        }
      }
    }
    return ranks;
  }
}
