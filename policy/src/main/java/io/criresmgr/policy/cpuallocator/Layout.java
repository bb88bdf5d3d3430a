package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * The topology as dense arrays, built once per allocator so that an allocation needs no set
 * operations: online CPUs by index (ascending id), each CPU's package, core and priority, and the
 * orders in which idle packages and cores are taken for each preferred priority (those depend only
 * on the topology). A core is identified by its lowest online thread, as in cri-resmgr, and cores
 * are indexed in that order. Immutable once built.
 */
final class Layout {
  /** Online CPU ids, ascending; a CPU's position here is its index. */
  final int[] ids;

  /** CPU index to package index. */
  final int[] pkgOf;

  /** CPU index to core index. */
  final int[] coreOf;

  /** CPU index to priority rank ({@link PriorityOrder#CLASSES} if it has none). */
  final byte[] prio;

  /** Package index to package id, ascending. */
  final int[] pkgIds;

  /** Package index to its CPU indexes, ascending. */
  final int[][] pkgCpus;

  /** Core index to its CPU indexes, ascending. */
  final int[][] coreCpus;

  /** Per preferred priority rank: package indexes in the order whole packages are taken. */
  final int[][] pkgOrder;

  /** Per preferred priority rank: core indexes in the order whole cores are taken. */
  final int[][] coreOrder;

  /** Per preferred priority rank: the rank of a single CPU of each priority rank. */
  final int[][] cpuRank;

  private final int[] indexOfId;

  Layout(SystemTopology topology, Map<CpuPriority, CpuSet> priorities) {
    Cpu[] cpus = topology.cpus().values().toArray(Cpu[]::new);
    ids = Arrays.stream(cpus).mapToInt(Cpu::id).toArray();
    indexOfId = inverse(ids);
    pkgIds = topology.packageIds().stream().mapToInt(Integer::intValue).toArray();
    pkgOf = new int[ids.length];
    prio = new byte[ids.length];
    for (int i = 0; i < ids.length; i++) {
      pkgOf[i] = Arrays.binarySearch(pkgIds, cpus[i].packageId());
      prio[i] = priorityOf(ids[i], priorities);
    }
    pkgCpus = group(pkgIds.length, pkgOf);
    coreOf = cores(cpus);
    coreCpus = group(IntStream.of(coreOf).max().orElse(-1) + 1, coreOf);
    int[][] pkgCounts = Arrays.stream(pkgCpus).map(this::priorityCounts).toArray(int[][]::new);
    int[][] coreCounts = Arrays.stream(coreCpus).map(this::priorityCounts).toArray(int[][]::new);
    pkgOrder = perPreference(prefer -> byPriority(pkgCounts, prefer));
    coreOrder = perPreference(prefer -> byPriority(coreCounts, prefer));
    cpuRank = perPreference(PriorityOrder::singleCpuRanks);
  }

  /** The index of CPU {@code id}, or -1 if it is not online. */
  int indexOf(int id) {
    return id < indexOfId.length ? indexOfId[id] : -1;
  }

  /** The counts per priority of the given CPU indexes. */
  int[] priorityCounts(int[] cpus) {
    int[] counts = new int[PriorityOrder.CLASSES + 1];
    for (int cpu : cpus) {
      counts[prio[cpu]]++;
    }
    return counts;
  }

  private static int[] inverse(int[] ids) {
    int[] inverse = new int[ids.length == 0 ? 0 : ids[ids.length - 1] + 1];
    Arrays.fill(inverse, -1);
    for (int i = 0; i < ids.length; i++) {
      inverse[ids[i]] = i;
    }
    return inverse;
  }

  private static int[][] perPreference(Function<CpuPriority, int[]> table) {
    int[][] out = new int[CpuPriority.values().length][];
    for (CpuPriority p : CpuPriority.values()) {
      out[p.rank()] = table.apply(p);
    }
    return out;
  }

  private static byte priorityOf(int id, Map<CpuPriority, CpuSet> priorities) {
    for (Map.Entry<CpuPriority, CpuSet> e : priorities.entrySet()) {
      if (e.getValue().contains(id)) {
        return (byte) e.getKey().rank();
      }
    }
    return PriorityOrder.CLASSES;
  }

  /** Cores numbered in the order of their lowest online thread. */
  private int[] cores(Cpu[] cpus) {
    int[] core = new int[ids.length];
    Arrays.fill(core, -1);
    int next = 0;
    for (int i = 0; i < ids.length; i++) {
      if (core[i] >= 0) {
        continue;
      }
      core[i] = next;
      CpuSet threads = cpus[i].threads();
      for (int sibling = threads.next(0); sibling >= 0; sibling = threads.next(sibling + 1)) {
        int j = indexOf(sibling);
        if (j > i && core[j] < 0 && pkgOf[j] == pkgOf[i]) {
          core[j] = next;
        }
      }
      next++;
    }
    return core;
  }

  /** Members of each group, ascending, from each member's group. */
  private static int[][] group(int groups, int[] groupOf) {
    int[] sizes = new int[groups];
    for (int g : groupOf) {
      sizes[g]++;
    }
    int[][] members = new int[groups][];
    for (int g = 0; g < groups; g++) {
      members[g] = new int[sizes[g]];
      sizes[g] = 0;
    }
    for (int i = 0; i < groupOf.length; i++) {
      members[groupOf[i]][sizes[groupOf[i]]++] = i;
    }
    return members;
  }

  /**
   * Group indexes sorted by {@link PriorityOrder#compare} of their CPUs' priority counts, best
   * first, then by index (the sort is stable and starts in index order). When all groups tie (no
   * priorities, or the same mix everywhere) that is the index order, returned without sorting.
   */
  private static int[] byPriority(int[][] counts, CpuPriority prefer) {
    boolean allTie = true;
    for (int g = 1; g < counts.length && allTie; g++) {
      allTie = PriorityOrder.compare(counts[g], counts[0], prefer) == 0;
    }
    if (allTie) {
      return IntStream.range(0, counts.length).toArray();
    }
    Integer[] order = new Integer[counts.length];
    Arrays.setAll(order, g -> g);
    Arrays.sort(order, (a, b) -> PriorityOrder.compare(counts[b], counts[a], prefer));
    return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
  }
}
