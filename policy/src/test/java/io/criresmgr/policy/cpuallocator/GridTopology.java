package io.criresmgr.policy.cpuallocator;

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
import java.util.function.UnaryOperator;

/**
 * A regular test topology, built directly: packages × NUMA nodes per package × cores per node ×
 * threads per core, one die per package, 1 GiB per node, distances 10 / 11 in the package / 21.
 *
 * @param threadMajor number CPUs as Linux does on servers (thread siblings N and N + all cores,
 *     e.g. package 0 = 0-19,40-59 on 2 × 20 cores) rather than as QEMU does (siblings consecutive)
 */
record GridTopology(
    int packages, int nodesPerPackage, int coresPerNode, int threads, boolean threadMajor) {

  /** cri-resmgr's {@code 2-socket-4-node-40-core} test system: 80 CPUs, siblings N and N + 40. */
  static GridTopology server80() {
    return new GridTopology(2, 2, 10, 2, true);
  }

  /** The e2e VM {@code n4c16}: node k = cpu 4k..4k+3, cores {0,1}, {2,3}, ... */
  static GridTopology n4c16() {
    return new GridTopology(2, 2, 2, 2, false);
  }

  SystemTopology build() {
    return build(UnaryOperator.identity());
  }

  /** The topology with each CPU passed through {@code customize} (e.g. to set frequencies). */
  SystemTopology build(UnaryOperator<Cpu> customize) {
    Map<Integer, Cpu> cpus = new TreeMap<>();
    Map<Integer, List<Integer>> nodeCpus = new TreeMap<>();
    for (int pkg = 0; pkg < packages; pkg++) {
      for (int node = 0; node < nodesPerPackage; node++) {
        int nodeId = pkg * nodesPerPackage + node;
        nodeCpus.put(nodeId, new ArrayList<>());
        for (int core = 0; core < coresPerNode; core++) {
          int globalCore = nodeId * coresPerNode + core;
          List<Integer> siblings = new ArrayList<>();
          for (int t = 0; t < threads; t++) {
            siblings.add(id(globalCore, t));
          }
          for (int id : siblings) {
            Cpu cpu =
                new Cpu(
                    id,
                    pkg,
                    0,
                    nodeId,
                    node * coresPerNode + core,
                    CpuSet.of(siblings),
                    CpuFrequency.UNKNOWN,
                    CoreType.UNKNOWN);
            cpus.put(id, customize.apply(cpu));
            nodeCpus.get(nodeId).add(id);
          }
        }
      }
    }
    return new SystemTopology(cpus, nodes(nodeCpus), CpuSet.of(cpus.keySet()), CpuSet.EMPTY);
  }

  private int id(int globalCore, int thread) {
    int cores = packages * nodesPerPackage * coresPerNode;
    return threadMajor ? thread * cores + globalCore : globalCore * threads + thread;
  }

  private Map<Integer, NumaNode> nodes(Map<Integer, List<Integer>> nodeCpus) {
    Map<Integer, NumaNode> nodes = new HashMap<>();
    for (int a : nodeCpus.keySet()) {
      Map<Integer, Integer> distances = new HashMap<>();
      for (int b : nodeCpus.keySet()) {
        distances.put(b, a == b ? 10 : a / nodesPerPackage == b / nodesPerPackage ? 11 : 21);
      }
      nodes.put(
          a,
          new NumaNode(
              a, CpuSet.of(nodeCpus.get(a)), 1L << 30, MemoryType.DRAM, false, distances, true));
    }
    return nodes;
  }
}
