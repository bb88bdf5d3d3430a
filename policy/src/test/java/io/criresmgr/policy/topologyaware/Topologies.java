package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * System topologies for tests, built directly (no sysfs): the reference e2e VMs {@code n4c16} and
 * {@code c4pmem4}, the reference unit-test trees {@code desktop}, {@code server} and {@code
 * 4-socket-server-nosnc} (cri-resmgr's {@code topology-aware/testdata/sysfs.tar.bz2}), and a
 * 448-CPU 8-node machine for performance tests.
 */
final class Topologies {
  static final long GIB = 1L << 30;

  private final Map<Integer, Cpu> cpus = new TreeMap<>();
  private final Map<Integer, List<Integer>> nodeCpus = new TreeMap<>();
  private final Map<Integer, Long> nodeMemory = new HashMap<>();
  private final Map<Integer, MemoryType> nodeTypes = new HashMap<>();
  private final Map<Integer, Map<Integer, Integer>> distances = new HashMap<>();

  private Topologies() {}

  /**
   * Nodes numbered contiguously, CPUs numbered node by node with the threads of a core consecutive,
   * distances 10 / 11 within a die / 21 (the layout of cri-resmgr's e2e VMs; docs/topology.md,
   * "Numbering").
   */
  static SystemTopology grid(
      int packages, int dies, int nodes, int cores, int threads, long mem, CpuSet isolated) {
    Topologies t = new Topologies();
    int cpu = 0;
    int node = 0;
    for (int p = 0; p < packages; p++) {
      int core = 0;
      for (int d = 0; d < dies; d++) {
        for (int n = 0; n < nodes; n++, node++) {
          t.node(node, mem, MemoryType.DRAM);
          for (int c = 0; c < cores; c++, core++) {
            CpuSet siblings = CpuSet.range(cpu, cpu + threads - 1);
            for (int th = 0; th < threads; th++, cpu++) {
              t.cpu(cpu, p, d, node, core, siblings);
            }
          }
        }
      }
    }
    int perDie = nodes;
    for (int a = 0; a < node; a++) {
      for (int b = 0; b < node; b++) {
        t.distance(a, b, a == b ? 10 : a / perDie == b / perDie ? 11 : 21);
      }
    }
    return t.build(isolated);
  }

  /** {@code n4c16}: 2 packages × 2 nodes × 2 cores × 2 threads, 2 GiB per node. */
  static SystemTopology n4c16() {
    return n4c16(CpuSet.EMPTY);
  }

  /** {@code n4c16} with kernel-isolated CPUs. */
  static SystemTopology n4c16(CpuSet isolated) {
    return grid(2, 1, 2, 2, 2, 2 * GIB, isolated);
  }

  /** A 448-CPU machine: 2 packages × 4 nodes × 28 cores × 2 threads, 64 GiB per node. */
  static SystemTopology large() {
    return grid(2, 1, 4, 28, 2, 64 * GIB, CpuSet.EMPTY);
  }

  /**
   * {@code c4pmem4}: 4 packages of one single-thread core and 2 GiB each (nodes 0-3), and 4 GiB
   * PMEM nodes 4-7 at distance 17 from nodes 2, 3, 0, 1.
   */
  static SystemTopology c4pmem4() {
    Topologies t = new Topologies();
    int[] close = {2, 3, 0, 1};
    for (int n = 0; n < 4; n++) {
      t.node(n, 2 * GIB, MemoryType.DRAM);
      t.cpu(n, n, 0, n, 0, CpuSet.of(n));
      t.node(4 + n, 4 * GIB, MemoryType.PMEM);
    }
    for (int a = 0; a < 8; a++) {
      for (int b = 0; b < 8; b++) {
        t.distance(a, b, a == b ? 10 : 21);
      }
    }
    for (int n = 0; n < 4; n++) {
      t.distance(4 + n, close[n], 17);
      t.distance(close[n], 4 + n, 17);
    }
    return t.build(CpuSet.EMPTY);
  }

  /** {@code desktop}: 20 CPUs, one package and node, siblings {@code n, n+10}. */
  static SystemTopology desktop() {
    Topologies t = new Topologies();
    t.node(0, 16 * GIB, MemoryType.DRAM);
    for (int c = 0; c < 20; c++) {
      t.cpu(c, 0, 0, 0, c % 10, CpuSet.of(c % 10, c % 10 + 10));
    }
    t.distance(0, 0, 10);
    return t.build(CpuSet.EMPTY);
  }

  /**
   * {@code server}: 112 CPUs in 2 packages, nodes 0-3 interleaved (node k holds CPUs k, k+4, ...;
   * package 0 = nodes 0 and 2), siblings {@code n, n+56}, 32 GiB each; CPU-less 130 GiB PMEM nodes
   * 4 and 5 closest to nodes 0 and 2; isolated {@code 4-7,60-63}.
   */
  static SystemTopology server() {
    Topologies t = new Topologies();
    for (int n = 0; n < 4; n++) {
      t.node(n, 32 * GIB, MemoryType.DRAM);
    }
    t.node(4, 130 * GIB, MemoryType.PMEM);
    t.node(5, 130 * GIB, MemoryType.PMEM);
    for (int c = 0; c < 112; c++) {
      int node = c % 4;
      int core = c % 56;
      t.cpu(c, node % 2, 0, node, core, CpuSet.of(core, core + 56));
    }
    int[][] matrix = {
      {10, 21, 11, 21, 17, 28},
      {21, 10, 21, 11, 28, 28},
      {11, 21, 10, 21, 28, 17},
      {21, 11, 21, 10, 28, 28},
      {17, 28, 28, 28, 10, 28},
      {28, 28, 17, 28, 28, 10}
    };
    for (int a = 0; a < 6; a++) {
      for (int b = 0; b < 6; b++) {
        t.distance(a, b, matrix[a][b]);
      }
    }
    return t.build(CpuSet.parse("4-7,60-63"));
  }

  /** {@code 4-socket-server-nosnc}: 144 CPUs, 4 packages of one node, siblings {@code n, n+72}. */
  static SystemTopology fourSocketNoSnc() {
    Topologies t = new Topologies();
    for (int n = 0; n < 4; n++) {
      t.node(n, 196 * GIB, MemoryType.DRAM);
    }
    for (int c = 0; c < 144; c++) {
      int core = c % 72;
      int node = core / 18;
      t.cpu(c, node, 0, node, core, CpuSet.of(core, core + 72));
    }
    for (int a = 0; a < 4; a++) {
      for (int b = 0; b < 4; b++) {
        t.distance(a, b, a == b ? 10 : 21);
      }
    }
    return t.build(CpuSet.EMPTY);
  }

  private void node(int id, long mem, MemoryType type) {
    nodeCpus.put(id, new ArrayList<>());
    nodeMemory.put(id, mem);
    nodeTypes.put(id, type);
  }

  private void cpu(int id, int pkg, int die, int node, int core, CpuSet siblings) {
    cpus.put(
        id, new Cpu(id, pkg, die, node, core, siblings, CpuFrequency.UNKNOWN, CoreType.UNKNOWN));
    nodeCpus.get(node).add(id);
  }

  private void distance(int a, int b, int d) {
    distances.computeIfAbsent(a, x -> new HashMap<>()).put(b, d);
  }

  private SystemTopology build(CpuSet isolated) {
    Map<Integer, NumaNode> nodes = new TreeMap<>();
    nodeCpus.forEach(
        (id, list) ->
            nodes.put(
                id,
                new NumaNode(
                    id,
                    CpuSet.of(list),
                    nodeMemory.get(id),
                    nodeTypes.get(id),
                    false,
                    distances.get(id),
                    true)));
    return new SystemTopology(cpus, nodes, CpuSet.of(List.copyOf(cpus.keySet())), isolated);
  }
}
