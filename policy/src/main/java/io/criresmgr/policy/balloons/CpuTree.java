package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The topology of the online CPUs as a tree, named as cri-resmgr's balloons policy names it: {@code
 * system} → package {@code p<N>} → die {@code p<N>d<D>} → NUMA node {@code p<N>d<D>n<M>} (M is the
 * system-wide node id) → core {@code p<N>d<D>n<M>cpu<C>} (C is the core's lowest CPU) → thread
 * {@code p<N>d<D>n<M>cpu<C>t<T>}. Memory-only nodes are left out. Immutable.
 */
public final class CpuTree {
  private final CpuTreeNode root;

  private CpuTree(CpuTreeNode root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  /** The tree of {@code topology}'s online CPUs. */
  public static CpuTree of(SystemTopology topology) {
    List<CpuTreeNode> packages = new ArrayList<>();
    for (int pkg : topology.packageIds()) {
      List<CpuTreeNode> dies = new ArrayList<>();
      for (int die : topology.dieIds(pkg)) {
        String dieName = "p" + pkg + "d" + die;
        List<CpuTreeNode> numas = new ArrayList<>();
        for (int node : topology.dieNodes(pkg, die)) {
          CpuSet cpus = topology.node(node).cpus().intersection(topology.dieCpus(pkg, die));
          numas.add(numa(topology, dieName + "n" + node, cpus));
        }
        dies.add(CpuTreeNode.of(dieName, Level.DIE, numas));
      }
      packages.add(CpuTreeNode.of("p" + pkg, Level.PACKAGE, dies));
    }
    return new CpuTree(CpuTreeNode.of("system", Level.SYSTEM, packages));
  }

  private static CpuTreeNode numa(SystemTopology topology, String name, CpuSet cpus) {
    List<CpuTreeNode> cores = new ArrayList<>();
    CpuSet seen = CpuSet.EMPTY;
    for (int cpu : cpus.stream().toArray()) {
      if (seen.contains(cpu)) {
        continue;
      }
      CpuSet threads = topology.coreCpus(cpu).intersection(cpus);
      seen = seen.union(threads);
      String coreName = name + "cpu" + cpu;
      List<CpuTreeNode> leaves = new ArrayList<>();
      threads.stream().forEach(t -> leaves.add(thread(coreName, t)));
      cores.add(CpuTreeNode.of(coreName, Level.CORE, leaves));
    }
    return CpuTreeNode.of(name, Level.NUMA, cores);
  }

  private static CpuTreeNode thread(String coreName, int cpu) {
    return new CpuTreeNode(coreName + "t" + cpu, Level.THREAD, CpuSet.of(cpu), List.of());
  }

  /** The {@code system} element. */
  public CpuTreeNode root() {
    return root;
  }

  /** Every CPU of the tree. */
  public CpuSet cpus() {
    return root.cpus();
  }

  /**
   * This tree with each NUMA node split by thread sibling index, as nri-plugins' balloons policy
   * splits it for {@code preferSpreadOnPhysicalCores}: NUMA node {@code X} gets children {@code
   * Xclass0} (the first thread of every core), {@code Xclass1} (the second threads) and so on, each
   * holding the cores reduced to those threads. Filling a class before the next one takes one
   * thread per core first.
   */
  public CpuTree splitThreads() {
    return new CpuTree(split(root));
  }

  private static CpuTreeNode split(CpuTreeNode node) {
    if (node.level() != Level.NUMA) {
      return new CpuTreeNode(
          node.name(),
          node.level(),
          node.cpus(),
          node.children().stream().map(CpuTree::split).toList());
    }
    List<CpuTreeNode> classes = new ArrayList<>();
    for (int index = 0; ; index++) {
      List<CpuTreeNode> cores = new ArrayList<>();
      for (CpuTreeNode core : node.children()) {
        if (index < core.children().size()) {
          CpuTreeNode thread = core.children().get(index);
          cores.add(new CpuTreeNode(core.name(), Level.CORE, thread.cpus(), List.of(thread)));
        }
      }
      if (cores.isEmpty()) {
        return new CpuTreeNode(node.name(), Level.NUMA, node.cpus(), classes);
      }
      classes.add(CpuTreeNode.of(node.name() + "class" + index, Level.NUMA, cores));
    }
  }

  /**
   * The names of the elements of {@code level} holding any of {@code cpus}, in tree order (for
   * balloon metrics such as the NUMA nodes or packages a balloon spans).
   */
  public List<String> names(Level level, CpuSet cpus) {
    List<String> names = new ArrayList<>();
    collect(root, level, cpus, names);
    return List.copyOf(names);
  }

  private static void collect(CpuTreeNode node, Level level, CpuSet cpus, List<String> names) {
    if (!node.cpus().intersects(cpus)) {
      return;
    }
    if (node.level() == level) {
      names.add(node.name());
      return;
    }
    node.children().forEach(child -> collect(child, level, cpus, names));
  }

  @Override
  public String toString() {
    return root.name() + " " + root.cpus();
  }
}
