package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * cputree_test.go's synthetic topologies {@code [packages, dies, numa, cores, threads]}: CPUs
 * numbered in that order with threads innermost (so {@code [2,2,2,2,2]} has CPUs 0 and 1 on the
 * first core and 16-31 on package 1), NUMA nodes numbered across the system.
 */
record Int5Topology(int packages, int dies, int numas, int cores, int threads) {
  SystemTopology build() {
    return build(UnaryOperator.identity());
  }

  /** The topology with each CPU passed through {@code customize} (e.g. to set core types). */
  SystemTopology build(UnaryOperator<Cpu> customize) {
    Map<Integer, Cpu> cpus = new TreeMap<>();
    Map<Integer, NumaNode> nodes = new TreeMap<>();
    int id = 0;
    for (int p = 0; p < packages; p++) {
      for (int d = 0; d < dies; d++) {
        for (int n = 0; n < numas; n++) {
          int node = (p * dies + d) * numas + n;
          CpuSet nodeCpus = CpuSet.range(id, id + cores * threads - 1);
          nodes.put(node, numaNode(node, nodeCpus));
          for (int c = 0; c < cores; c++) {
            int coreId = (d * numas + n) * cores + c;
            CpuSet siblings = CpuSet.range(id, id + threads - 1);
            for (int t = 0; t < threads; t++, id++) {
              cpus.put(id, customize.apply(cpu(id, p, d, node, coreId, siblings)));
            }
          }
        }
      }
    }
    return new SystemTopology(cpus, nodes, CpuSet.range(0, id - 1), CpuSet.EMPTY);
  }

  private static Cpu cpu(int id, int pkg, int die, int node, int core, CpuSet siblings) {
    return new Cpu(id, pkg, die, node, core, siblings, CpuFrequency.UNKNOWN, CoreType.UNKNOWN);
  }

  private static NumaNode numaNode(int id, CpuSet cpus) {
    return new NumaNode(id, cpus, 1L << 30, MemoryType.DRAM, false, Map.of(id, 10), true);
  }
}
