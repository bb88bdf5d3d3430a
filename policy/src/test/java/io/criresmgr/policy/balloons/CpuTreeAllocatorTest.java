package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import org.junit.jupiter.api.Test;

/** cputree_test.go's TestResizeCpus cases, without device hints. */
class CpuTreeAllocatorTest {
  @Test
  void firstAllocationsChooseTheSmallestFittingSubtree() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);
    int[] deltas = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32};
    int[] sizes = {0, 1, 2, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32};
    for (int i = 0; i < deltas.length; i++) {
      CpuSet from = b.allocator.candidates(CpuSet.EMPTY, b.free, deltas[i]);
      assertEquals(sizes[i], from.size(), "delta " + deltas[i]);
      assertEquals(deltas[i], b.allocator.resize(CpuSet.EMPTY, b.free, deltas[i]).size());
    }
  }

  @Test
  void tooLargeAnAllocationFails() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);
    PolicyException e = assertThrows(PolicyException.class, () -> b.resize(1, 33));
    assertEquals(
        "not enough free CPUs: wanted 33 more to grow from 0 to 33 CPUs, 32 available (0-31)",
        e.getMessage());
    b.preset(1, CpuSet.range(0, 31));
    e = assertThrows(PolicyException.class, () -> b.resize(2, 1));
    assertTrue(e.getMessage().endsWith("0 available (none)"), e.getMessage());
    e = assertThrows(PolicyException.class, () -> b.resize(2, -1));
    assertTrue(e.getMessage().startsWith("not enough current CPUs"), e.getMessage());
  }

  @Test
  void spreadAllocationsAreDisjointAtTheHighestLevel() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, true, false);
    for (int id = 1; id <= 8; id++) {
      b.resize(id, 1);
    }
    b.assertDisjoint(Level.PACKAGE, 1, 2);
    b.assertDisjoint(Level.DIE, 1, 2, 3, 4);
    b.assertDisjoint(Level.NUMA, 1, 2, 3, 4, 5, 6, 7, 8);
  }

  @Test
  void spreadAllocationsOfDifferentSizes() {
    Balloons b = Balloons.int5(4, 1, 4, 8, 2, true, false);
    int[] deltas = {1, 3, 2, 4, 1, 4, 2, 4};
    for (int i = 0; i < deltas.length; i++) {
      b.resize(i + 1, deltas[i]);
      if (i < 4) {
        b.assertDisjoint(Level.PACKAGE, range(i + 1));
      } else {
        b.assertDisjoint(Level.NUMA, range(i + 1));
      }
    }
  }

  @Test
  void packAllocationsFillCoreThenNumaThenDie() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);
    Level[] same = {null, Level.CORE, Level.NUMA, Level.NUMA, Level.DIE};
    for (int id = 1; id <= 4; id++) {
      b.resize(id, 1);
      if (same[id - 1] != null) {
        b.assertSame(same[id - 1], b.all());
      }
    }
    b.resize(5, 1);
    b.assertSame(Level.DIE, b.all());
  }

  @Test
  void inflateGrowsWithinTheSmallestElements() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);
    int[] deltas = {1, 1, 1, 1, 1, 3, 6, 1, 1};
    Level[] same = {
      Level.CORE,
      Level.CORE,
      Level.NUMA,
      Level.NUMA,
      Level.DIE,
      Level.DIE,
      Level.PACKAGE,
      Level.PACKAGE,
      Level.PACKAGE
    };
    int[] candidates = {1, 1, 1, 1, 1, 3, 8, 1, 1};
    for (int i = 0; i < deltas.length; i++) {
      assertEquals(candidates[i], b.allocator.candidates(b.get(1), b.free, deltas[i]).size());
      b.resize(1, deltas[i]);
      b.assertSame(same[i], b.get(1));
    }
    assertEquals(CpuSet.range(0, 15), b.get(1));
  }

  @Test
  void singleRemovalsDefragment() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);
    CpuTree tree = CpuTree.of(b.topology);
    b.preset(1, CpuSet.of(0, 2, 3, 7, 10, 17, 18));
    Level[] same = {null, Level.PACKAGE, Level.DIE, Level.NUMA, Level.CORE, Level.CORE};
    String[] notOn = {null, "p1", "p0d1", "p0d0n1", "p0d0n0cpu0", null};
    for (int i = 0; i < same.length; i++) {
      b.resize(1, -1);
      if (same[i] != null) {
        b.assertSame(same[i], b.get(1));
      }
      if (notOn[i] != null) {
        b.assertNotOn(1, notOn[i], tree);
      }
    }
    assertEquals(1, b.get(1).size());
    assertTrue(CpuSet.of(2, 3).containsAll(b.get(1)));
  }

  @Test
  void multiRemovalsDefragment() {
    Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);
    CpuTree tree = CpuTree.of(b.topology);
    b.preset(1, CpuSet.of(0, 2, 4, 6, 8, 9, 10, 24, 25, 26, 27, 28, 29, 30, 31));
    assertEquals(2, b.resize(1, -2).size());
    b.resize(1, -1);
    b.assertNotOn(1, "p0d1", tree);
    b.resize(1, -5);
    b.assertNotOn(1, "p0", tree);
    b.assertSame(Level.DIE, b.get(1));
    b.resize(1, -3);
    b.assertSame(Level.NUMA, b.get(1));
    assertEquals(4, b.get(1).size());
  }

  @Test
  void packedBalloonsStayOnOnePackage() {
    Balloons b = Balloons.int5(2, 1, 1, 16, 2, false, false);
    int[] sizes = {4, 4, 14, 7, 7, 4, 4, 14};
    for (int i = 0; i < sizes.length; i++) {
      b.resize(i + 1, sizes[i]);
      b.assertSame(Level.PACKAGE, b.get(i + 1));
    }
  }

  @Test
  void gentleRebalancingMovesASplitBalloonToItsMainPackage() {
    Balloons b = Balloons.int5(2, 1, 1, 16, 2, false, false);
    b.preset(1, CpuSet.range(0, 17));
    b.preset(2, CpuSet.range(18, 35));
    b.preset(3, CpuSet.range(36, 47));
    b.resize(1, -4);
    for (int round = 1; round <= 4; round++) {
      assertEquals(2, b.elements(Level.PACKAGE, b.get(2)).size(), "round " + round);
      assertTrue(CpuSet.range(32, 35).intersects(b.resize(2, -1)), "round " + round);
      b.resize(2, 1);
    }
    b.assertSame(Level.PACKAGE, b.get(2));
    assertEquals(
        CpuSet.range(0, 17).difference(b.get(1)), b.get(2).difference(CpuSet.range(18, 31)));
  }

  @Test
  void preferSpreadOnPhysicalCoresTakesOneThreadPerCoreFirst() {
    Balloons b = Balloons.int5(4, 1, 4, 8, 2, true, true);
    for (int delta : new int[] {2, 1, 4, 1}) {
      b.resize(1, delta);
      b.assertSame(Level.NUMA, b.get(1));
      b.assertNotSame(Level.CORE, b.get(1));
    }
    b.resize(2, 3);
    b.assertNotSame(Level.CORE, b.get(2));
    b.resize(3, 9);
    b.resize(4, 16);
    for (int id = 2; id <= 4; id++) {
      b.assertSame(Level.NUMA, b.get(id));
      b.assertDisjoint(Level.PACKAGE, range(id));
    }
    b.resize(1, 3);
    b.resize(1, 4);
    b.assertSame(Level.NUMA, b.get(1));
    b.resize(1, 3);
    b.assertSame(Level.PACKAGE, b.get(1));
    assertEquals(2, b.elements(Level.NUMA, b.get(1)).size());
    b.resize(1, -2);
    b.assertSame(Level.NUMA, b.get(1));
    b.resize(1, 2);
    b.assertSame(Level.PACKAGE, b.get(1));
    b.resize(1, -10);
    b.assertSame(Level.NUMA, b.get(1));
    b.assertNotSame(Level.CORE, b.get(1));
  }

  private static int[] range(int n) {
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i + 1;
    }
    return ids;
  }
}
