package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The pool trees of the topologies of cri-resmgr's e2e suites (docs/topology.md, "Built-in specs")
 * and the sanity checks.
 */
class PoolTreeBuilderTest {
  private static List<String> names(PoolTree tree) {
    return tree.pools().stream().map(Pool::name).toList();
  }

  @Test
  void n4c16HasNumaLeavesUnderTwoSocketsAndAVirtualRoot() {
    PoolTree tree = PoolTreeBuilder.build(Topologies.n4c16(), CpuSet.range(0, 15), CpuSet.of(0));
    assertEquals(
        List.of(
            "NUMA node #0",
            "NUMA node #1",
            "socket #0",
            "NUMA node #2",
            "NUMA node #3",
            "socket #1",
            "root"),
        names(tree));
    Pool numa1 = tree.pool("NUMA node #1").orElseThrow();
    assertEquals(CpuSet.range(4, 7), numa1.sharable());
    assertEquals(List.of(2, 6), numa1.ancestors());
    assertEquals(2, numa1.depth());
    Pool numa0 = tree.pool(0);
    assertEquals(CpuSet.of(0), numa0.reserved());
    assertEquals(CpuSet.range(1, 3), numa0.sharable());
    assertEquals(List.of(0, 1, 2, 3, 4, 5), tree.root().descendants());
    assertEquals(CpuSet.range(0, 3), tree.root().memset());
    assertEquals(8 * Topologies.GIB, tree.root().memory().dram());
  }

  @Test
  void c4pmem4HasSocketLeavesWithTheClosestPmemNode() {
    PoolTree tree = PoolTreeBuilder.build(Topologies.c4pmem4(), CpuSet.range(0, 3), CpuSet.of(0));
    assertEquals(List.of("socket #0", "socket #1", "socket #2", "socket #3", "root"), names(tree));
    assertEquals(CpuSet.of(6), tree.pool(0).memsets().get(MemoryType.PMEM));
    assertEquals(CpuSet.of(7), tree.pool(1).memsets().get(MemoryType.PMEM));
    assertEquals(CpuSet.of(4), tree.pool(2).memsets().get(MemoryType.PMEM));
    assertEquals(CpuSet.of(5), tree.pool(3).memsets().get(MemoryType.PMEM));
    assertEquals(CpuSet.of(3, 5), tree.pool(3).memset());
    assertEquals(new Memory(2 * Topologies.GIB, 4 * Topologies.GIB, 0), tree.pool(3).memory());
    assertEquals(Set.of(MemoryType.DRAM, MemoryType.PMEM), tree.presentTypes());
    assertTrue(tree.pool(0).sharable().isEmpty());
  }

  @Test
  void serverPairsInterleavedNodesPerSocketAndPmemWithTheirClosestNodes() {
    PoolTree tree = PoolTreeBuilder.build(Topologies.server(), CpuSet.range(0, 111), CpuSet.of(0));
    assertEquals(
        List.of(
            "NUMA node #0",
            "NUMA node #2",
            "socket #0",
            "NUMA node #1",
            "NUMA node #3",
            "socket #1",
            "root"),
        names(tree));
    assertEquals(CpuSet.of(0, 4), tree.pool(0).memset());
    assertEquals(CpuSet.of(2, 5), tree.pool(1).memset());
    assertEquals(CpuSet.of(4, 60), tree.pool(0).isolated());
    assertEquals(28, tree.pool(0).cpus().size());
    assertEquals(112, tree.root().cpus().size());
  }

  @Test
  void singleSocketSingleNodeIsOneRootPool() {
    PoolTree tree = PoolTreeBuilder.build(Topologies.desktop(), CpuSet.range(0, 19), CpuSet.of(0));
    assertEquals(List.of("socket #0"), names(tree));
    assertEquals(20, tree.root().cpus().size());
  }

  @Test
  void fourSocketsWithOneNodeEachHaveSocketLeaves() {
    PoolTree tree =
        PoolTreeBuilder.build(Topologies.fourSocketNoSnc(), CpuSet.range(0, 143), CpuSet.of(0));
    assertEquals(5, tree.size());
    assertEquals(36, tree.pool(0).cpus().size());
    assertEquals(144, tree.root().cpus().size());
  }

  @Test
  void multiDieSocketsGetDiePools() {
    SystemTopology n4c32 = Topologies.grid(2, 2, 2, 2, 2, Topologies.GIB, CpuSet.EMPTY);
    PoolTree tree = PoolTreeBuilder.build(n4c32, CpuSet.range(0, 31), CpuSet.of(0));
    assertEquals(
        List.of("NUMA node #0", "NUMA node #1", "die #0/0", "NUMA node #2", "NUMA node #3"),
        names(tree).subList(0, 5));
    assertEquals("die #0/1", tree.pool(5).name());
    assertEquals("socket #0", tree.pool(6).name());
    assertEquals(15, tree.size());
  }

  @Test
  void numaOffHasSocketLeavesSharingNodeZeroAndItsMemory() {
    SystemTopology t = TopologySpec.builtIn("numaoff").topology();
    PoolTree tree = PoolTreeBuilder.build(t, CpuSet.range(0, 15), CpuSet.of(0));
    assertEquals(List.of("socket #0", "socket #1", "root"), names(tree));
    Pool s0 = tree.pool(0);
    Pool s1 = tree.pool(1);
    assertEquals(CpuSet.of(0), s0.reserved());
    assertEquals(CpuSet.range(1, 7), s0.sharable());
    assertEquals(CpuSet.range(8, 15), s1.sharable());
    assertEquals(CpuSet.of(0), s0.memset());
    assertEquals(CpuSet.of(0), s1.memset());
    assertEquals(CpuSet.of(0), tree.root().memset());
    // the node's 8 GiB are split by CPUs, so that they add up to the node at the root
    assertEquals(4 * Topologies.GIB, s0.memory().dram());
    assertEquals(4 * Topologies.GIB, s1.memory().dram());
    assertEquals(8 * Topologies.GIB, tree.root().memory().dram());
  }

  @Test
  void numaOffWithDiesHasDieLeavesSharingNodeZero() {
    SystemTopology t =
        TopologySpec.parse("{groups: [{mem: 3G, cores: 2, dies: 2, packages: 2}], numa: off}")
            .topology();
    PoolTree tree = PoolTreeBuilder.build(t, CpuSet.range(0, 15), CpuSet.of(0));
    assertEquals(
        List.of("die #0/0", "die #0/1", "socket #0", "die #1/0", "die #1/1", "socket #1", "root"),
        names(tree));
    assertEquals(CpuSet.range(4, 7), tree.pool(1).sharable());
    assertEquals(CpuSet.of(0), tree.pool(1).memset());
    assertEquals(3 * Topologies.GIB, tree.pool(1).memory().dram());
    assertEquals(12 * Topologies.GIB, tree.root().memory().dram());
  }

  @Test
  void aNodeSpanningSocketsMustBeTheOnlyNodeOfEach() {
    // n4c16 with node 2's CPUs (8-11, socket #1) moved to node 0 (socket #0)
    SystemTopology t = Topologies.n4c16();
    Map<Integer, Cpu> cpus = new HashMap<>(t.cpus());
    for (int c = 8; c < 12; c++) {
      Cpu cpu = t.cpu(c);
      cpus.put(
          c,
          new Cpu(
              c,
              cpu.packageId(),
              cpu.dieId(),
              0,
              cpu.coreId(),
              cpu.threads(),
              cpu.frequency(),
              cpu.coreType()));
    }
    Map<Integer, NumaNode> nodes = new HashMap<>(t.nodes());
    NumaNode n0 = nodes.get(0);
    nodes.remove(2);
    nodes.put(
        0,
        new NumaNode(
            0,
            n0.cpus().union(CpuSet.range(8, 11)),
            n0.memoryBytes(),
            n0.memoryType(),
            false,
            n0.distances(),
            true));
    SystemTopology bad = new SystemTopology(cpus, nodes, t.presentCpus(), CpuSet.EMPTY);
    assertEquals(
        "topology-aware: unhandled HW topology: NUMA node #0 spans socket #0, socket #1 but socket"
            + " #0 also has NUMA node(s) #1; a NUMA node spanning sockets or dies must be the only"
            + " node of each",
        assertThrows(
                PolicyException.class,
                () -> PoolTreeBuilder.build(bad, CpuSet.range(0, 15), CpuSet.of(0)))
            .getMessage());
  }

  @Test
  void asymmetricDistancesAreRejected() {
    SystemTopology t = Topologies.n4c16();
    Map<Integer, NumaNode> nodes = new HashMap<>(t.nodes());
    NumaNode n0 = nodes.get(0);
    Map<Integer, Integer> d = new HashMap<>(n0.distances());
    d.put(1, 12);
    nodes.put(0, new NumaNode(0, n0.cpus(), n0.memoryBytes(), n0.memoryType(), false, d, true));
    SystemTopology bad = new SystemTopology(t.cpus(), nodes, t.presentCpus(), CpuSet.EMPTY);
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> PoolTreeBuilder.build(bad, CpuSet.range(0, 15), CpuSet.of(0)));
    assertEquals(
        "topology-aware: asymmetric NUMA distance (#0, #1): 12 != 11; the policy needs a symmetric"
            + " node distance matrix",
        e.getMessage());
  }
}
