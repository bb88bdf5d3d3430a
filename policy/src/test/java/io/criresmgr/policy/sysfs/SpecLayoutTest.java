package io.criresmgr.policy.sysfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The numbering of the compact topology spec (docs/topology.md, "Numbering"). */
class SpecLayoutTest {
  private static final long GIB = 1L << 30;

  /** Row by row, {@code distances.get(a).get(b)} is the distance from node a to node b. */
  static List<List<Integer>> distances(SystemTopology t) {
    List<List<Integer>> rows = new ArrayList<>();
    for (int a : t.nodes().keySet()) {
      rows.add(t.nodes().keySet().stream().map(b -> t.distance(a, b)).toList());
    }
    return rows;
  }

  @Test
  void n4c16() {
    SystemTopology t = TopologySpec.builtIn("n4c16").topology();
    assertEquals(CpuSet.range(0, 15), t.onlineCpus());
    assertEquals(List.of(0, 1), t.packageIds());
    for (int k = 0; k < 4; k++) {
      assertEquals(CpuSet.range(4 * k, 4 * k + 3), t.node(k).cpus());
      assertEquals(2 * GIB, t.node(k).memoryBytes());
    }
    // package0 cores 0,1 = {0,1},{2,3}; node1 = package0 cores 2,3; core ids restart per package
    assertEquals(
        new Cpu(2, 0, 0, 0, 1, CpuSet.of(2, 3), CpuFrequency.UNKNOWN, CoreType.UNKNOWN), t.cpu(2));
    assertEquals(
        new Cpu(5, 0, 0, 1, 2, CpuSet.of(4, 5), CpuFrequency.UNKNOWN, CoreType.UNKNOWN), t.cpu(5));
    assertEquals(
        new Cpu(9, 1, 0, 2, 0, CpuSet.of(8, 9), CpuFrequency.UNKNOWN, CoreType.UNKNOWN), t.cpu(9));
    assertEquals(List.of(2, 3), t.packageNodes(1));
    assertEquals(
        List.of(
            List.of(10, 11, 21, 21),
            List.of(11, 10, 21, 21),
            List.of(21, 21, 10, 11),
            List.of(21, 21, 11, 10)),
        distances(t));
    assertEquals(2, t.threadsPerCore());
  }

  @Test
  void numaOffPutsBothPackagesInNodeZero() {
    SystemTopology t = TopologySpec.builtIn("numaoff").topology();
    assertEquals(CpuSet.range(0, 15), t.onlineCpus());
    assertEquals(List.of(0, 1), t.packageIds());
    assertEquals(List.of(0), List.copyOf(t.nodes().keySet()));
    assertEquals(CpuSet.range(0, 15), t.node(0).cpus());
    assertEquals(8 * GIB, t.node(0).memoryBytes());
    assertEquals(List.of(List.of(10)), distances(t));
    assertEquals(List.of(0), t.packageNodes(0));
    assertEquals(List.of(0), t.packageNodes(1));
    // package1 starts at cpu8, core ids restart there, and its node is 0 too
    assertEquals(
        new Cpu(9, 1, 0, 0, 0, CpuSet.of(8, 9), CpuFrequency.UNKNOWN, CoreType.UNKNOWN), t.cpu(9));
  }

  @Test
  void n4c32HasEightNodes() {
    SystemTopology t = TopologySpec.builtIn("n4c32").topology();
    assertEquals(CpuSet.range(0, 31), t.onlineCpus());
    assertEquals(8, t.nodes().size());
    for (int p = 0; p < 2; p++) {
      for (int d = 0; d < 2; d++) {
        assertEquals(List.of(4 * p + 2 * d, 4 * p + 2 * d + 1), t.dieNodes(p, d));
      }
    }
    for (int k = 0; k < 8; k++) {
      assertEquals(CpuSet.range(4 * k, 4 * k + 3), t.node(k).cpus());
      for (int j = 0; j < 8; j++) {
        int expected = j == k ? 10 : j / 2 == k / 2 ? 11 : 21;
        assertEquals(expected, t.distance(k, j), "node" + k + " to node" + j);
      }
    }
    // core ids are unique per package across its dies
    assertEquals(CpuSet.range(8, 15), t.dieCpus(0, 1));
    assertEquals(4, t.cpu(8).coreId());
    assertEquals(7, t.cpu(15).coreId());
    assertEquals(0, t.cpu(16).coreId());
  }

  @Test
  void c4pmem4() {
    SystemTopology t = TopologySpec.builtIn("c4pmem4").topology();
    assertEquals(CpuSet.range(0, 3), t.onlineCpus());
    assertEquals(List.of(0, 1, 2, 3), t.packageIds());
    for (int k = 0; k < 4; k++) {
      assertEquals(CpuSet.of(k), t.node(k).cpus());
      assertEquals(CpuSet.of(k), t.cpu(k).threads());
      assertEquals(k, t.cpu(k).packageId());
    }
    assertEquals(List.of(4, 5, 6, 7), t.nodesOfType(MemoryType.PMEM));
    assertEquals(4 * GIB, t.node(4).memoryBytes());
    assertTrue(t.node(4).memoryOnly());
    assertFalse(t.node(4).far());
    int[][] near = {{4, 2}, {5, 3}, {6, 0}, {7, 1}};
    for (int a = 0; a < 8; a++) {
      for (int b = 0; b < 8; b++) {
        int expected = a == b ? 10 : 21;
        for (int[] pair : near) {
          if ((a == pair[0] && b == pair[1]) || (a == pair[1] && b == pair[0])) {
            expected = 17;
          }
        }
        assertEquals(expected, t.distance(a, b), "node" + a + " to node" + b);
      }
    }
  }

  @Test
  void memoryOnlyGroupsAreTypedAsTheReaderTypesThem() {
    SystemTopology t = TopologySpec.builtIn("tiered").topology();
    assertEquals(List.of(0, 1, 6), t.nodesOfType(MemoryType.DRAM));
    assertEquals(List.of(2, 3), t.nodesOfType(MemoryType.PMEM));
    assertEquals(List.of(4, 5), t.nodesOfType(MemoryType.HBM));
    assertTrue(t.node(6).far());
    assertFalse(t.node(0).far());
    assertEquals(13, t.distance(4, 0));
    assertEquals(26, t.distance(1, 6));
    // a small memory-only node without mem-type is HBM by size
    SystemTopology small = TopologySpec.parse("[{mem: 4G, cores: 1}, {mem: 1G}]").topology();
    assertEquals(List.of(1), small.nodesOfType(MemoryType.HBM));
  }

  @Test
  void theLaterOfTwoConflictingNodeDistancesWins() {
    SystemTopology t =
        TopologySpec.parse(
                "[{mem: 4G, cores: 1, node-dist: {1: 30}}, {mem: 8G, node-dist: {0: 40}}]")
            .topology();
    assertEquals(40, t.distance(0, 1));
    assertEquals(40, t.distance(1, 0));
  }

  @Test
  void presentCpusFollowTheOnlineOnesAndIsolatedCpusAreKept() {
    SystemTopology t =
        TopologySpec.parse("{groups: [{mem: 4G, cores: 2, cpus-present: 3}], isolcpus: 3-5}")
            .topology();
    assertEquals(CpuSet.range(0, 3), t.onlineCpus());
    assertEquals(CpuSet.range(4, 6), t.offlineCpus());
    assertEquals(CpuSet.of(3), t.isolatedCpus());
  }

  @Test
  void defaultDistancesSeparateDiesAndPackages() {
    SystemTopology t = TopologySpec.builtIn("s8c4096").topology();
    assertEquals(4096, t.onlineCpus().size());
    assertEquals(64, t.nodes().size());
    assertEquals(8, t.packageIds().size());
    assertEquals(List.of(0, 1), t.dieIds(7));
    assertEquals(11, t.distance(0, 3));
    assertEquals(12, t.distance(0, 4));
    assertEquals(21, t.distance(0, 8));
    assertEquals(63, t.cpu(127).coreId());
    assertEquals(255, t.cpu(511).coreId());
  }
}
