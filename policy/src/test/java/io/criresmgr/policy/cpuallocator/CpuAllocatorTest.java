package io.criresmgr.policy.cpuallocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Allocation order on the e2e VM layout n4c16 (cores {0,1}, {2,3}, ...; package 0 = 0-7), where
 * every CPU has the same priority, so priorities play no part.
 */
class CpuAllocatorTest {
  private static final SystemTopology N4C16 = GridTopology.n4c16().build();
  private final CpuAllocator allocator = new CpuAllocator(N4C16);

  private CpuSet allocate(String from, int count) {
    return allocator.allocate(CpuSet.parse(from), count, CpuPriority.NORMAL);
  }

  @ParameterizedTest(name = "{0} of {1} -> {2}")
  @CsvSource(
      delimiter = ';',
      value = {
        // topology-aware's 750m reservation from every CPU: cpu0 (cri-resmgr's e2e suites)
        "1; 0-15; 0",
        // test01-always-fits: 1 and 2 exclusive CPUs from NUMA nodes 1 and 2
        "1; 4-7; 4",
        "2; 8-11; 8-9",
        // test04-available-resources: 3 CPUs from node 1
        "3; 4-7; 4-6",
        // test05-reserved-resources: 2250m reserved from the available 4-13
        "3; 4-13; 4-6",
      })
  void picksWhatTheEndToEndTestsExpect(int count, String from, String expected) {
    assertEquals(CpuSet.parse(expected), allocate(from, count));
    // the same on the e2e spec as the simulator and the fake sysfs number it
    CpuAllocator spec = new CpuAllocator(TopologySpec.builtIn("n4c16").topology());
    assertEquals(
        CpuSet.parse(expected), spec.allocate(CpuSet.parse(from), count, CpuPriority.NORMAL));
  }

  @Test
  void withUniformPrioritiesTheLowerPackageAndTheThreadWhoseSiblingIsTakenWin() {
    assertEquals(CpuSet.of(1), allocate("1-15", 1));
    assertEquals(CpuSet.of(1), allocator.allocate(CpuSet.parse("1-15"), 1, CpuPriority.NONE));
    assertEquals(CpuSet.of(0), allocate("0-14", 1));
  }

  @Test
  void podpoolsInstantiatesItsPoolsAsTheEndToEndTestsExpect() {
    // cri-resmgr's podpools e2e suite: available 2-15, reserved 15; three 1-CPU and three 2-CPU
    // pools in turn
    CpuSet free = CpuSet.parse("2-14");
    StringBuilder pools = new StringBuilder();
    for (int size : new int[] {1, 1, 1, 2, 2, 2}) {
      CpuSet pool = allocator.allocate(free, size, CpuPriority.NORMAL);
      pools.append(pool).append(' ');
      free = free.difference(pool);
    }
    assertEquals("2 3 4 6-7 8-9 10-11 ", pools.toString());
    assertEquals(CpuSet.parse("5,12-14"), free);
  }

  @Test
  void wholeIdlePackagesComeFirst() {
    assertEquals(CpuSet.parse("0-7"), allocate("0-15", 8));
    assertEquals(CpuSet.parse("0-9"), allocate("0-15", 10));
    // package 0 is not idle (cpu0 is missing), package 1 is
    assertEquals(CpuSet.parse("8-15"), allocate("1-15", 8));
  }

  @Test
  void wholeIdleCoresComeBeforeThreadsAndThreadsStayInTheirPackage() {
    // core {2,3} is idle; the third CPU is the lone thread 1 of package 0, where CPUs are taken
    assertEquals(CpuSet.parse("1-3"), allocate("1-15", 3));
    // a thread whose sibling is taken before the threads of idle cores
    assertEquals(CpuSet.of(3), allocate("3-7", 1));
  }

  @Test
  void hyperthreadSiblingsAreKeptTogether() {
    assertEquals(CpuSet.parse("0-3"), allocate("0-15", 4));
    CpuAllocator server = new CpuAllocator(GridTopology.server80().build());
    assertEquals(
        CpuSet.parse("0-1,40-41"), server.allocate(CpuSet.range(0, 79), 4, CpuPriority.NORMAL));
    assertEquals(
        CpuSet.parse("0-19,40-59"), server.allocate(CpuSet.range(0, 79), 40, CpuPriority.NORMAL));
  }

  @Test
  void theSameInputGivesTheSameCpus() {
    CpuAllocator other = new CpuAllocator(GridTopology.n4c16().build());
    CpuSet from = CpuSet.parse("1,2,5-9,12,14-15");
    for (int count = 0; count <= from.size(); count++) {
      CpuSet first = allocator.allocate(from, count, CpuPriority.NORMAL);
      assertEquals(count, first.size());
      assertEquals(first, allocator.allocate(from, count, CpuPriority.NORMAL));
      assertEquals(first, other.allocate(from, count, CpuPriority.NORMAL));
      assertEquals(first, from.intersection(first));
    }
  }

  @Test
  void allOrNothingAreReturnedAsIs() {
    CpuSet from = CpuSet.parse("3,7,100");
    assertSame(from, allocator.allocate(from, 3, CpuPriority.HIGH));
    assertEquals(CpuSet.EMPTY, allocator.allocate(from, 0, CpuPriority.HIGH));
  }

  @Test
  void releaseKeepsTheBestPlacedCpus() {
    // keeping 4 of 0-4,6,8 keeps the idle cores {0,1} and {2,3}
    assertEquals(
        CpuSet.parse("4,6,8"), allocator.release(CpuSet.parse("0-4,6,8"), 3, CpuPriority.NORMAL));
    assertEquals(
        CpuSet.parse("0-4,6,8"), allocator.release(CpuSet.parse("0-4,6,8"), 7, CpuPriority.NORMAL));
    assertEquals(CpuSet.EMPTY, allocator.release(CpuSet.parse("0-4"), 0, CpuPriority.NORMAL));
  }

  @Test
  void errorsSayWhatWasWantedFromWhat() {
    assertEquals(
        "cannot allocate 5 CPUs: only 4 available in 0-3",
        assertThrows(PolicyException.class, () -> allocate("0-3", 5)).getMessage());
    assertEquals(
        "cannot allocate 1 CPUs: only 0 available in the empty set",
        assertThrows(PolicyException.class, () -> allocate("", 1)).getMessage());
    assertEquals(
        "cannot allocate 3 CPUs from 0-1,100-101: only 2 of them are online",
        assertThrows(PolicyException.class, () -> allocate("0-1,100-101", 3)).getMessage());
    assertEquals(
        "cannot release 5 CPUs: only 4 available in 0-3",
        assertThrows(
                PolicyException.class,
                () -> allocator.release(CpuSet.parse("0-3"), 5, CpuPriority.NORMAL))
            .getMessage());
    assertEquals(
        "cannot allocate a negative number of CPUs: -1",
        assertThrows(IllegalArgumentException.class, () -> allocate("0-3", -1)).getMessage());
  }

  @Test
  void oneThreadPerCoreKeepsTheLowestIdOfEachCore() {
    assertEquals(
        CpuSet.parse("0,2,4,6,8,10,12,14"), allocator.oneThreadPerCore(CpuSet.range(0, 15)));
    assertEquals(CpuSet.parse("1-2,5,99"), allocator.oneThreadPerCore(CpuSet.parse("1-3,5,99")));
    CpuAllocator server = new CpuAllocator(GridTopology.server80().build());
    assertEquals(CpuSet.range(0, 39), server.oneThreadPerCore(CpuSet.range(0, 79)));
    assertEquals(CpuSet.parse("0,41"), server.oneThreadPerCore(CpuSet.parse("0,40-41")));
  }

  @Test
  void injectedPriorityClassesMustNotOverlap() {
    Map<CpuPriority, CpuSet> overlapping =
        Map.of(CpuPriority.HIGH, CpuSet.parse("0-3"), CpuPriority.LOW, CpuSet.parse("3-5"));
    assertEquals(
        "CPU priority classes overlap: 3 in LOW again",
        assertThrows(IllegalArgumentException.class, () -> new CpuAllocator(N4C16, overlapping))
            .getMessage());
    Map<CpuPriority, CpuSet> none = Map.of(CpuPriority.NONE, CpuSet.parse("0-3"));
    assertEquals(
        "NONE is not a CPU priority class",
        assertThrows(IllegalArgumentException.class, () -> new CpuAllocator(N4C16, none))
            .getMessage());
  }

  @Test
  void largeTopologiesAllocateWholeCoresAndPackages() {
    CpuAllocator big = new CpuAllocator(new GridTopology(8, 4, 64, 2, false).build());
    CpuSet all = CpuSet.range(0, 4095);
    assertEquals(CpuSet.range(0, 31), big.allocate(all, 32, CpuPriority.NORMAL));
    assertEquals(CpuSet.range(0, 512), big.allocate(all, 513, CpuPriority.NORMAL));
    assertEquals(CpuSet.of(1), big.allocate(CpuSet.range(1, 4095), 1, CpuPriority.NONE));
  }
}
