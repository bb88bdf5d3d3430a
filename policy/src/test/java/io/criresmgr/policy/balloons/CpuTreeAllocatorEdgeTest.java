package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Trivial cases, argument checks, determinism and a large machine. */
class CpuTreeAllocatorEdgeTest {
  private final Balloons b = Balloons.int5(2, 2, 2, 2, 2, false, false);

  @Test
  void trivialCasesNeedNoTree() {
    CpuSet current = CpuSet.range(0, 3);
    CpuSet free = CpuSet.of(5, 17, 30);
    assertEquals(CpuSet.EMPTY, b.allocator.resize(current, free, 0));
    assertEquals(free, b.allocator.resize(current, free, 3));
    assertEquals(current, b.allocator.resize(current, free, -4));
  }

  @Test
  void overlappingSetsAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> b.allocator.resize(CpuSet.range(0, 3), CpuSet.range(3, 5), 1));
    assertEquals("current CPUs 0-3 and free CPUs 3-5 overlap", e.getMessage());
  }

  @Test
  void releasingMoreThanTheBalloonHoldsFails() {
    assertThrows(
        PolicyException.class, () -> b.allocator.resize(CpuSet.of(1, 2), CpuSet.range(3, 9), -3));
  }

  @Test
  void priorityPicksTheExactCpusOfTheSubtree() {
    SystemTopology hybrid =
        new Int5Topology(1, 1, 2, 2, 2)
            .build(
                c ->
                    new Cpu(
                        c.id(),
                        c.packageId(),
                        c.dieId(),
                        c.nodeId(),
                        c.coreId(),
                        c.threads(),
                        c.frequency(),
                        c.nodeId() == 1 ? CoreType.PERFORMANCE : CoreType.EFFICIENT));
    CpuTree tree = CpuTree.of(hybrid);
    CpuAllocator cpus = new CpuAllocator(hybrid);
    CpuSet high =
        new CpuTreeAllocator(tree, cpus, new CpuTreeOptions(false, false, CpuPriority.HIGH))
            .resize(CpuSet.EMPTY, hybrid.onlineCpus(), 5);
    assertEquals(5, high.size());
    assertTrue(high.containsAll(CpuSet.range(4, 7)), high.toString());
    CpuSet low =
        new CpuTreeAllocator(tree, cpus, new CpuTreeOptions(false, false, CpuPriority.LOW))
            .resize(CpuSet.EMPTY, hybrid.onlineCpus(), 5);
    assertTrue(low.containsAll(CpuSet.range(0, 3)), low.toString());
  }

  @Test
  void sameInputGivesSameCpus() {
    List<CpuSet> first = script(Balloons.int5(4, 1, 4, 8, 2, true, true));
    List<CpuSet> second = script(Balloons.int5(4, 1, 4, 8, 2, true, true));
    assertEquals(first, second);
    assertEquals(
        script(Balloons.int5(2, 2, 2, 2, 2, false, false)),
        script(Balloons.int5(2, 2, 2, 2, 2, false, false)));
  }

  private static List<CpuSet> script(Balloons balloons) {
    List<CpuSet> changes = new ArrayList<>();
    int[][] steps = {{1, 3}, {2, 5}, {1, 2}, {3, 7}, {2, -3}, {1, -4}, {3, 2}, {4, 6}};
    for (int[] step : steps) {
      changes.add(balloons.resize(step[0], step[1]));
    }
    return changes;
  }

  @Test
  void largeMachineInflatesAndDeflates() {
    var topology = TopologySpec.builtIn("s8c4096").topology();
    for (boolean spread : new boolean[] {false, true}) {
      Balloons big = new Balloons(topology, true, spread);
      for (int id = 1; id <= 16; id++) {
        big.resize(id, 8 * id);
        big.assertSame(Level.PACKAGE, big.get(id));
      }
      for (int id = 1; id <= 16; id++) {
        big.resize(id, -4 * id);
        big.resize(id, 100);
      }
      big.resize(17, 1000);
      big.resize(17, -999);
      assertEquals(1, big.get(17).size());
      int used = big.all().size();
      assertEquals(topology.onlineCpus().size(), used + big.free.size());
      assertTrue(big.allocator.options().topologyBalancing());
    }
  }
}
