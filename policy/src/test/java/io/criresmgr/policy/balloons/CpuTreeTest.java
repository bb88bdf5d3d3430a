package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuTreeTest {
  private final CpuTree tree = CpuTree.of(new Int5Topology(2, 2, 2, 2, 2).build());

  @Test
  void namesFollowCriResmgr() {
    CpuTreeNode root = tree.root();
    assertEquals("system", root.name());
    assertEquals(CpuSet.range(0, 31), root.cpus());
    CpuTreeNode die = root.children().get(0).children().get(1);
    assertEquals("p0d1", die.name());
    CpuTreeNode numa = die.children().get(1);
    assertEquals("p0d1n3", numa.name());
    assertEquals(CpuSet.range(12, 15), numa.cpus());
    // Int5Topology knows no caches: each core is its own L2 element
    CpuTreeNode l2 = numa.children().get(1);
    assertEquals("p0d1n3$14", l2.name());
    assertEquals(Level.L2CACHE, l2.level());
    CpuTreeNode core = l2.children().get(0);
    assertEquals(l2.cpus(), core.cpus());
    assertEquals("p0d1n3cpu14", core.name());
    assertEquals(Level.CORE, core.level());
    assertEquals(
        List.of("p0d1n3cpu14t14", "p0d1n3cpu14t15"),
        core.children().stream().map(CpuTreeNode::name).toList());
  }

  @Test
  void splitThreadsPutsSiblingsInDifferentClasses() {
    CpuTreeNode numa = tree.splitThreads().root().children().get(1).children().get(1);
    assertEquals("p1d1", numa.name());
    CpuTreeNode n6 = numa.children().get(0);
    assertEquals(
        List.of("p1d1n6class0", "p1d1n6class1"),
        n6.children().stream().map(CpuTreeNode::name).toList());
    assertEquals(CpuSet.of(24, 26), n6.children().get(0).cpus());
    assertEquals(CpuSet.of(25, 27), n6.children().get(1).cpus());
    CpuTreeNode core = n6.children().get(1).children().get(0).children().get(0);
    assertEquals("p1d1n6cpu24", core.name());
    assertEquals(CpuSet.of(25), core.cpus());
    assertEquals(CpuSet.range(24, 27), n6.cpus());
  }

  @Test
  void namesOfLevelsSpannedByCpus() {
    CpuSet cpus = CpuSet.of(0, 1, 3, 4, 16);
    assertEquals(List.of("p0", "p1"), tree.names(Level.PACKAGE, cpus));
    assertEquals(List.of("p0d0n0", "p0d0n1", "p1d0n4"), tree.names(Level.NUMA, cpus));
    assertEquals(
        List.of("p0d0n0cpu0", "p0d0n0cpu2", "p0d0n1cpu4", "p1d0n4cpu16"),
        tree.names(Level.CORE, cpus));
    assertEquals(
        List.of("p0d0n0", "p0d0n1", "p1d0n4"), tree.splitThreads().names(Level.NUMA, cpus));
  }

  @Test
  void l2CachesGroupTheirCoresBelowTheNumaNode() {
    CpuTree t =
        CpuTree.of(
            TopologySpec.parse("[{mem: 1G, cores: 4, threads: 2, nodes: 2, l2-cores: 2}]")
                .topology());
    CpuTreeNode n1 = t.root().children().get(0).children().get(0).children().get(1);
    assertEquals(
        List.of("p0d0n1$8", "p0d0n1$12"), n1.children().stream().map(CpuTreeNode::name).toList());
    CpuTreeNode l2 = n1.children().get(1);
    assertEquals(CpuSet.range(12, 15), l2.cpus());
    assertEquals(
        List.of("p0d0n1cpu12", "p0d0n1cpu14"),
        l2.children().stream().map(CpuTreeNode::name).toList());
    assertEquals(List.of("p0d0n0$0", "p0d0n1$12"), t.names(Level.L2CACHE, CpuSet.of(1, 14)));
  }

  @Test
  void splitThreadsKeepsTheL2CachesOfEachClass() {
    CpuTree t =
        CpuTree.of(TopologySpec.parse("[{mem: 1G, cores: 4, threads: 2, l2-cores: 2}]").topology())
            .splitThreads();
    CpuTreeNode n0 = t.root().children().get(0).children().get(0).children().get(0);
    CpuTreeNode class1 = n0.children().get(1);
    assertEquals("p0d0n0class1", class1.name());
    assertEquals(CpuSet.of(1, 3, 5, 7), class1.cpus());
    assertEquals(
        List.of(CpuSet.of(1, 3), CpuSet.of(5, 7)),
        class1.children().stream().map(CpuTreeNode::cpus).toList());
    assertEquals(Level.L2CACHE, class1.children().get(1).level());
    assertEquals(CpuSet.of(7), class1.children().get(1).children().get(1).cpus());
  }

  @Test
  void builtInSpecTreeHoldsEveryOnlineCpu() {
    var topology = TopologySpec.builtIn("n4c16").topology();
    CpuTree t = CpuTree.of(topology);
    assertEquals(topology.onlineCpus(), t.cpus());
    assertEquals(topology.onlineCpus(), t.splitThreads().cpus());
    assertEquals(topology.onlineCpus().size(), t.names(Level.THREAD, t.cpus()).size());
  }
}
