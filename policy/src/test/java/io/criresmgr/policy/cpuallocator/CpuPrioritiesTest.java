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

/** Priority classes derived from cpufreq and core types, and how allocation follows them. */
class CpuPrioritiesTest {
  private static final CpuSet FIRST = CpuSet.range(0, 7);
  private static final CpuSet SECOND = CpuSet.range(8, 15);

  /** n4c16 with each CPU's frequency facts and core type set by id. */
  private static SystemTopology n4c16(IntFunction<CpuFrequency> freq, IntFunction<CoreType> type) {
    return GridTopology.n4c16()
        .build(
            c ->
                new Cpu(
                    c.id(),
                    c.packageId(),
                    c.dieId(),
                    c.nodeId(),
                    c.coreId(),
                    c.threads(),
                    freq.apply(c.id()),
                    type.apply(c.id())));
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
  void cpusAboveTheLowestBaseFrequencyAreHigh() {
    assertEquals(
        classes(CpuSet.range(0, 3), CpuSet.EMPTY, CpuSet.range(4, 15)),
        discover(
            id -> freq(id < 4 ? 2_400_000 : id < 14 ? 2_000_000 : 0, ""), id -> CoreType.UNKNOWN));
  }

  @Test
  void cpusWithAnEppBelowTheLeastPerformingOneAreHighAndEppWinsOverFrequency() {
    assertEquals(
        classes(SECOND.difference(CpuSet.of(15)), CpuSet.EMPTY, FIRST.union(CpuSet.of(15))),
        discover(
            id ->
                freq(
                    id < 8 ? 2_400_000 : 2_000_000,
                    id < 8 ? "power" : id < 12 ? "performance" : id < 15 ? "balance_power" : "?"),
            id -> CoreType.UNKNOWN));
  }

  @Test
  void performanceCoresAreHighAndEfficientCoresLowWhenNothingElseDiffers() {
    assertEquals(
        classes(FIRST, CpuSet.EMPTY, SECOND),
        discover(
            id -> CpuFrequency.UNKNOWN, id -> id < 8 ? CoreType.PERFORMANCE : CoreType.EFFICIENT));
  }

  @Test
  void idleCoresAreTakenByPriority() {
    CpuAllocator allocator =
        new CpuAllocator(
            n4c16(id -> freq(id < 8 ? 2_000_000 : 2_400_000, ""), id -> CoreType.UNKNOWN));
    CpuSet all = CpuSet.range(0, 15);
    assertEquals(CpuSet.parse("8-9"), allocator.allocate(all, 2, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(all, 2, CpuPriority.LOW));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(all, 2, CpuPriority.NORMAL));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(all, 2, CpuPriority.NONE));
    // single threads: the preferred priority first, then the others by rank
    assertEquals(CpuSet.of(8), allocator.allocate(CpuSet.parse("0,2,8,10"), 1, CpuPriority.HIGH));
    assertEquals(CpuSet.of(0), allocator.allocate(CpuSet.parse("0,2,8,10"), 1, CpuPriority.LOW));
  }

  @Test
  void aWholeCoreThatFitsComesBeforeAThreadOfThePreferredPriority() {
    // P-cores {0,1}..{6,7} and single-thread E-cores 8..15: a one-CPU request takes the first
    // E-core in the whole-core step even when preferring high priority, as cri-resmgr does.
    SystemTopology hybrid =
        GridTopology.n4c16()
            .build(
                c ->
                    c.id() < 8
                        ? new Cpu(
                            c.id(),
                            c.packageId(),
                            0,
                            c.nodeId(),
                            c.coreId(),
                            c.threads(),
                            CpuFrequency.UNKNOWN,
                            CoreType.PERFORMANCE)
                        : new Cpu(
                            c.id(),
                            c.packageId(),
                            0,
                            c.nodeId(),
                            c.id(),
                            CpuSet.of(c.id()),
                            CpuFrequency.UNKNOWN,
                            CoreType.EFFICIENT));
    CpuAllocator allocator = new CpuAllocator(hybrid);
    assertEquals(CpuSet.of(8), allocator.allocate(CpuSet.range(0, 15), 1, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("0-1"), allocator.allocate(CpuSet.range(0, 15), 2, CpuPriority.HIGH));
    assertEquals(CpuSet.parse("8-9"), allocator.allocate(CpuSet.range(0, 15), 2, CpuPriority.LOW));
  }
}
