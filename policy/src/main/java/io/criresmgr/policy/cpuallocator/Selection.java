package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * One allocation in progress: the free CPUs left, counts of free and taken CPUs per package and
 * core kept up to date as CPUs are taken, and cri-resmgr's three steps (whole idle packages, whole
 * idle cores, single threads). Used once, by one thread.
 */
final class Selection {
  private static final int INDEX_BITS = 24;
  private static final int CORE_FREE_BITS = 16;

  private final Layout layout;
  private final CpuPriority prefer;
  private final boolean[] free;
  private final int[] pkgFree;
  private final int[][] pkgFreePrio;
  private final int[] pkgTaken;
  private final int[] coreFree;
  private final int[] picked;
  private int taken;
  private int available;

  /** Prepares to take {@code count} of the online CPUs of {@code from}. */
  Selection(Layout layout, CpuSet from, int count, CpuPriority prefer) {
    this.layout = layout;
    this.prefer = prefer;
    this.free = new boolean[layout.ids.length];
    this.pkgFree = new int[layout.pkgIds.length];
    this.pkgFreePrio = new int[layout.pkgIds.length][PriorityOrder.CLASSES + 1];
    this.pkgTaken = new int[layout.pkgIds.length];
    this.coreFree = new int[layout.coreCpus.length];
    this.picked = new int[count];
    for (int id = from.next(0); id >= 0; id = from.next(id + 1)) {
      int cpu = layout.indexOf(id);
      if (cpu >= 0) {
        addFree(cpu);
      }
    }
  }

  private void addFree(int cpu) {
    free[cpu] = true;
    pkgFree[layout.pkgOf[cpu]]++;
    pkgFreePrio[layout.pkgOf[cpu]][layout.prio[cpu]]++;
    coreFree[layout.coreOf[cpu]]++;
    available++;
  }

  /** The number of online CPUs in the set to allocate from. */
  int available() {
    return available;
  }

  /** Runs the three steps; returns the ids of the CPUs taken. Needs enough {@link #available}. */
  int[] run() {
    takeIdleGroups(layout.pkgOrder[prefer.rank()], layout.pkgCpus, pkgFree);
    takeIdleGroups(layout.coreOrder[prefer.rank()], layout.coreCpus, coreFree);
    takeThreads();
    return IntStream.of(picked).map(i -> layout.ids[i]).toArray();
  }

  /**
   * Takes every package (or core) whose online CPUs are all free, in the precomputed order, as long
   * as it fits in what is still needed. One that does not fit is skipped, not the end: a later one
   * may be smaller.
   */
  private void takeIdleGroups(int[] order, int[][] members, int[] freeCount) {
    for (int g : order) {
      if (taken == picked.length) {
        return;
      }
      int size = members[g].length;
      if (size > 0 && freeCount[g] == size && picked.length - taken >= size) {
        for (int cpu : members[g]) {
          take(cpu);
        }
      }
    }
  }

  /**
   * Takes single threads in cri-resmgr's order: packages with more CPUs already taken first, then
   * by the priorities of their free CPUs (the tighter fit if both have enough of the preferred
   * priority for what is still wanted), then by package id; within a package, by the CPU's
   * priority, then threads whose core has fewer free CPUs, then by id. (cri-resmgr also compares
   * the package's free CPU count after the package id, which can never decide, so it is left out.)
   * cri-resmgr sorts once, before taking any thread; so the packages are ranked first, and each
   * package's threads are ordered before the first of them is taken (cores do not span packages, so
   * taking threads of one package changes no other package's order).
   */
  private void takeThreads() {
    if (taken == picked.length) {
      return;
    }
    for (int pkg : packagesInOrder()) {
      if (pkgFree[pkg] > 0) {
        takeFromPackage(pkg);
      }
      if (taken == picked.length) {
        return;
      }
    }
  }

  /** Takes threads of {@code pkg} by priority rank, free threads of the core, and index. */
  private void takeFromPackage(int pkg) {
    int[] cpuRank = layout.cpuRank[prefer.rank()];
    long[] keys = new long[pkgFree[pkg]];
    int n = 0;
    for (int cpu : layout.pkgCpus[pkg]) {
      if (free[cpu]) {
        long coreFreeKey = Math.min(coreFree[layout.coreOf[cpu]], (1 << CORE_FREE_BITS) - 1);
        keys[n++] =
            (long) cpuRank[layout.prio[cpu]] << (INDEX_BITS + CORE_FREE_BITS)
                | coreFreeKey << INDEX_BITS
                | cpu;
      }
    }
    Arrays.sort(keys);
    for (int k = 0; k < n && taken < picked.length; k++) {
      take((int) (keys[k] & ((1 << INDEX_BITS) - 1)));
    }
  }

  /** Package indexes in the order of {@link #takeThreads}. */
  private Integer[] packagesInOrder() {
    int wanted = picked.length - taken;
    Comparator<Integer> byTaken = Comparator.comparingInt(p -> -pkgTaken[p]);
    Comparator<Integer> order =
        byTaken.thenComparing(
            (a, b) -> PriorityOrder.compare(pkgFreePrio[b], pkgFreePrio[a], prefer, wanted));
    Integer[] pkgs = IntStream.range(0, pkgFree.length).boxed().toArray(Integer[]::new);
    Arrays.sort(pkgs, order.thenComparing(Comparator.naturalOrder()));
    return pkgs;
  }

  private void take(int cpu) {
    free[cpu] = false;
    int pkg = layout.pkgOf[cpu];
    pkgFree[pkg]--;
    pkgFreePrio[pkg][layout.prio[cpu]]--;
    pkgTaken[pkg]++;
    coreFree[layout.coreOf[cpu]]--;
    picked[taken++] = cpu;
  }
}
