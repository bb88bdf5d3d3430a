package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AssignmentTest {
  private static final LinuxResources REQUESTED =
      new LinuxResources(
          100000, 50000, 512, 1 << 30, "0-7", "0-1", Map.of("memory.high", "max", "a", "1"));

  @Test
  void noneLeavesTheRequestAlone() {
    assertEquals(REQUESTED, Assignment.NONE.applyTo(REQUESTED));
  }

  @Test
  void everyDecidedSettingReplacesTheRequestedOne() {
    LinuxResources applied = Fixtures.fullAssignment().applyTo(REQUESTED);
    assertEquals(
        new LinuxResources(
            100000,
            -1,
            2048,
            256 << 20,
            "2-3,6",
            "0",
            Map.of("memory.high", "max", "a", "1", "memory.swap.max", "0")),
        applied);
  }

  @Test
  void cpusAndMemsOnlyKeepTheRest() {
    LinuxResources applied = Assignment.of(CpuSet.of(1), CpuSet.EMPTY).applyTo(REQUESTED);
    assertEquals(
        new LinuxResources(100000, 50000, 512, 1 << 30, "1", "0-1", REQUESTED.unified()), applied);
  }

  @Test
  void unifiedValuesMergeWithTheAssignmentWinning() {
    Assignment a = Assignment.NONE.withUnified(Map.of("memory.high", "1G")).withCpuShares(2);
    LinuxResources applied = a.applyTo(REQUESTED);
    assertEquals(Map.of("memory.high", "1G", "a", "1"), applied.unified());
    assertEquals(2, applied.cpuShares());
  }

  @Test
  void withersChangeOneField() {
    Assignment a = Fixtures.fullAssignment();
    assertEquals(CpuSet.of(9), a.withCpus(CpuSet.of(9)).cpus());
    assertEquals(a.mems(), a.withCpus(CpuSet.of(9)).mems());
    assertEquals(CpuSet.of(1), a.withMems(CpuSet.of(1)).mems());
    assertEquals(a.withCpus(CpuSet.of(9)).withCpus(a.cpus()), a);
  }
}
