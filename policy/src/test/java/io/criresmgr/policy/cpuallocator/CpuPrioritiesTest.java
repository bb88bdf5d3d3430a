package io.criresmgr.policy.cpuallocator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Priority classes derived from cpufreq and core types, package by package, and how allocation
 * follows them. The layout is n4c16: package 0 = CPUs 0-7, package 1 = 8-15, cores {0,1}, {2,3}...
 */
class CpuPrioritiesTest {
  /** The first half of each package. */
  private static final CpuSet FIRST_HALVES = CpuSet.parse("0-3,8-11");

  private static final CpuSet SECOND_HALVES = CpuSet.parse("4-7,12-15");

  /** n4c16 with each CPU's frequency facts and core type set by id. */
  private static SystemTopology n4c16(IntFunction<CpuFrequency> freq, IntFunction<CoreType> type) {
    return GridTopology.n4c16().build(c -> with(c, c.threads(), freq, type));
  }

  private static Cpu with(
      Cpu c, CpuSet threads, IntFunction<CpuFrequency> freq, IntFunction<CoreType> type) {
    return new Cpu(
        c.id(),
        c.packageId(),
        c.dieId(),
        c.nodeId(),
        c.coreId(),
        threads,
        freq.apply(c.id()),
        type.apply(c.id()));
  }

  private static CpuFrequency freq(long baseKhz, String epp) {
    return new CpuFrequency(800_000, 3_000_000, baseKhz, epp);
  }

  private static Map<CpuPriority, CpuSet> classes(CpuSet high, CpuSet normal, CpuSet low) {
    return Map.of(CpuPriority.HIGH, high, CpuPriority.NORMAL, normal, CpuPriority.LOW, low);
  }

  private static Map<CpuPriority, CpuSet> discover(
      IntFunction<CpuFrequency> freq, IntFunction<CoreType> type) {
    return new CpuAllocator(n4c16(freq, type)).priorities();
  }

  @Test
  void withoutDifferencesEveryCpuIsNormal() {
    assertEquals(
        classes(CpuSet.EMPTY, CpuSet.range(0, 15), CpuSet.EMPTY),
        discover(id -> CpuFrequency.UNKNOWN, id -> CoreType.UNKNOWN));
    assertEquals(
        classes(CpuSet.EMPTY, CpuSet.range(0, 15), CpuSet.EMPTY),
        discover(id -> freq(2_000_000, "balance_performance"), id -> CoreType.PERFORMANCE));
  }

  @Test
  void cpusAboveTheLowestBaseFrequencyOfTheirPackageAreHigh() {
    assertEquals(
        classes(FIRST_HALVES, CpuSet.EMPTY, SECOND_HALVES),
        discover(
            id -> freq(FIRST_HALVES.contains(id) ? 2_400_000 : id == 15 ? 0 : 2_000_000, ""),
            id -> CoreType.UNKNOWN));
    // differences between packages do not count
    assertEquals(
        classes(CpuSet.EMPTY, CpuSet.range(0, 15), CpuSet.EMPTY),
        discover(id -> freq(id < 8 ? 2_400_000 : 2_000_000, ""), id -> CoreType.UNKNOWN));
  }

  @Test
  void cpusWithAnEppBelowTheLeastPerformingOneAreHighAndEppWinsOverFrequency() {
    // package 0: the faster half has the power EPP; package 1: one frequency, three EPPs
    IntFunction<CpuFrequency> freqs =
        id ->
            id < 8
                ? freq(id < 4 ? 2_400_000 : 2_000_000, id < 4 ? "power" : "performance")
                : freq(2_000_000, id < 12 ? "balance_power" : id < 15 ? "balance_performance" : "");
    assertEquals(
        classes(CpuSet.parse("4-7,12-14"), CpuSet.EMPTY, CpuSet.parse("0-3,8-11,15")),
        discover(freqs, id -> CoreType.UNKNOWN));
  }

  @Test
  void performanceCoresAreHighAndEfficientCoresLowWhenNothingElseDiffers() {
    assertEquals(
        classes(FIRST_HALVES, CpuSet.EMPTY, SECOND_HALVES),
        discover(
            id -> CpuFrequency.UNKNOWN,
            id -> FIRST_HALVES.contains(id) ? CoreType.PERFORMANCE : CoreType.EFFICIENT));
  }

  @Test
  void cpusAreTakenByPriority() {
    CpuAllocator allocator =
        new CpuAllocator(
            n4c16(
                id -> freq(SECOND_HALVES.contains(id) ? 2_400_000 : 2_000_000, ""),
                id -> CoreType.UNKNOWN));
    CpuSet all = CpuSet.range(0, 15);
    assertEquals(CpuSet.parse("4-5"), allocator.allocate(all, 2, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(all, 2, CpuPriority.LOW));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(all, 2, CpuPriority.NORMAL));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(all, 2, CpuPriority.NONE));
    // single threads (no idle core): the package that fits tighter, then the preferred priority
    CpuSet halfCores = CpuSet.parse("0,2,4,6,8,12");
    assertEquals(CpuSet.of(12), allocator.allocate(halfCores, 1, CpuPriority.HIGH));
    assertEquals(CpuSet.of(8), allocator.allocate(halfCores, 1, CpuPriority.LOW));
    assertEquals(CpuSet.parse("4,6"), allocator.allocate(halfCores, 2, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("0,2"), allocator.allocate(halfCores, 2, CpuPriority.LOW));
  }

  @Test
  void aWholeCoreThatFitsComesBeforeAThreadOfThePreferredPriority() {
    // one package: P-cores {0,1}..{6,7} and single-thread E-cores 8..15. A one-CPU request takes
    // the first E-core in the whole-core step even when preferring high priority, as cri-resmgr
    // does.
    SystemTopology hybrid =
        new GridTopology(1, 2, 4, 2, false)
            .build(
                c ->
                    c.id() < 8
                        ? with(
                            c, c.threads(), id -> CpuFrequency.UNKNOWN, id -> CoreType.PERFORMANCE)
                        : with(
                            c,
                            CpuSet.of(c.id()),
                            id -> CpuFrequency.UNKNOWN,
                            id -> CoreType.EFFICIENT));
    CpuAllocator allocator = new CpuAllocator(hybrid);
    assertEquals(CpuSet.parse("0-7"), allocator.priorities().get(CpuPriority.HIGH));
    assertEquals(CpuSet.of(8), allocator.allocate(CpuSet.range(0, 15), 1, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(CpuSet.range(0, 15), 2, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("8-9"), allocator.allocate(CpuSet.range(0, 15), 2, CpuPriority.LOW));
  }
}
