package io.criresmgr.policy.cpuallocator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PriorityOrderTest {
  @Test
  void morePreferredThenMoreLowerThenFewerHigher() {
    // counts are HIGH, NORMAL, LOW
    assertTrue(
        PriorityOrder.compare(new int[] {0, 3, 0}, new int[] {0, 2, 9}, CpuPriority.NORMAL) > 0);
    assertTrue(
        PriorityOrder.compare(new int[] {0, 2, 1}, new int[] {0, 2, 0}, CpuPriority.NORMAL) > 0);
    assertTrue(
        PriorityOrder.compare(new int[] {1, 2, 1}, new int[] {0, 2, 1}, CpuPriority.NORMAL) < 0);
    assertTrue(
        PriorityOrder.compare(new int[] {0, 5, 1}, new int[] {0, 0, 1}, CpuPriority.LOW) < 0);
    assertEquals(
        0, PriorityOrder.compare(new int[] {9, 0, 0}, new int[] {0, 0, 9}, CpuPriority.NONE));
  }

  @Test
  void whenBothHaveEnoughOfThePreferredPriorityTheTighterFitWins() {
    assertTrue(
        PriorityOrder.compare(new int[] {0, 3, 0}, new int[] {0, 5, 0}, CpuPriority.NORMAL, 3) > 0);
    assertTrue(
        PriorityOrder.compare(new int[] {0, 3, 0}, new int[] {0, 5, 0}, CpuPriority.NORMAL, 4) < 0);
    // a tie in the tight fit ends the comparison, lower priorities are not looked at
    assertEquals(
        0, PriorityOrder.compare(new int[] {0, 3, 0}, new int[] {0, 3, 9}, CpuPriority.NORMAL, 2));
    assertTrue(
        PriorityOrder.compare(new int[] {0, 3, 0}, new int[] {0, 3, 9}, CpuPriority.NORMAL, 0) < 0);
  }

  @Test
  void singleCpuRanks() {
    // indexes HIGH, NORMAL, LOW, no class; 0 is the best
    assertArrayEquals(new int[] {0, 1, 2, 3}, PriorityOrder.singleCpuRanks(CpuPriority.HIGH));
    assertArrayEquals(new int[] {3, 0, 1, 2}, PriorityOrder.singleCpuRanks(CpuPriority.NORMAL));
    assertArrayEquals(new int[] {3, 2, 0, 1}, PriorityOrder.singleCpuRanks(CpuPriority.LOW));
    assertArrayEquals(new int[] {0, 0, 0, 0}, PriorityOrder.singleCpuRanks(CpuPriority.NONE));
  }
}
