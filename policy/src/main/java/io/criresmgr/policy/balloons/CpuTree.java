package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The topology of the online CPUs as a tree, named as cri-resmgr's balloons policy names it: {@code
 * system} → package {@code p<N>} → die {@code p<N>d<D>} → NUMA node {@code p<N>d<D>n<M>} (M is the
 * system-wide node id) → L2 cache {@code p<N>d<D>n<M>$<L>} (L is the cache's lowest CPU; as in
 * nri-plugins) → core {@code p<N>d<D>n<M>cpu<C>} (C is the core's lowest CPU) → thread {@code
 * p<N>d<D>n<M>cpu<C>t<T>}. A CPU of no known L2 cache has its core as its L2 element, so every
 * branch has the same depth, and a tree whose L2 caches are the cores chooses as one without the
 * level. Memory-only nodes are left out. Immutable.
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
    List<CpuTreeNode> l2s = new ArrayList<>();
    CpuSet seen = CpuSet.EMPTY;
    for (int cpu : cpus.stream().toArray()) {
      if (!seen.contains(cpu)) {
        CpuSet l2 = l2Cpus(topology, cpu).intersection(cpus).difference(seen);
        seen = seen.union(l2);
        l2s.add(CpuTreeNode.of(name + "$" + cpu, Level.L2CACHE, cores(topology, name, l2)));
      }
    }
    return CpuTreeNode.of(name, Level.NUMA, l2s);
  }

  /** The CPUs sharing the first L2 cache holding {@code cpu}, else (none known) its core. */
  private static CpuSet l2Cpus(SystemTopology topology, int cpu) {
    for (CpuSet group : topology.cacheGroups(2)) {
      if (group.contains(cpu)) {
        return group;
      }
    }
    return topology.coreCpus(cpu);
  }

  private static List<CpuTreeNode> cores(SystemTopology topology, String numaName, CpuSet cpus) {
    List<CpuTreeNode> cores = new ArrayList<>();
    CpuSet seen = CpuSet.EMPTY;
    for (int cpu : cpus.stream().toArray()) {
      if (seen.contains(cpu)) {
        continue;
      }
      CpuSet threads = topology.coreCpus(cpu).intersection(cpus);
      seen = seen.union(threads);
      String coreName = numaName + "cpu" + cpu;
      List<CpuTreeNode> leaves = new ArrayList<>();
      threads.stream().forEach(t -> leaves.add(thread(coreName, t)));
      cores.add(CpuTreeNode.of(coreName, Level.CORE, leaves));
    }
    return cores;
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
   * holding the L2 caches and cores reduced to those threads. Filling a class before the next one
   * takes one thread per core first.
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
      CpuSet threads = threadsOfIndex(node, index);
      if (threads.isEmpty()) {
        return new CpuTreeNode(node.name(), Level.NUMA, node.cpus(), classes);
      }
      List<CpuTreeNode> children = new ArrayList<>();
      for (CpuTreeNode child : node.children()) {
        mask(child, threads).ifPresent(children::add);
      }
      classes.add(CpuTreeNode.of(node.name() + "class" + index, Level.NUMA, children));
    }
  }

  /** The CPUs that are thread number {@code index} of their core, below {@code node}. */
  private static CpuSet threadsOfIndex(CpuTreeNode node, int index) {
    if (node.level() == Level.CORE) {
      return index < node.children().size() ? node.children().get(index).cpus() : CpuSet.EMPTY;
    }
    CpuSet cpus = CpuSet.EMPTY;
    for (CpuTreeNode child : node.children()) {
      cpus = cpus.union(threadsOfIndex(child, index));
    }
    return cpus;
  }

  /** {@code node} reduced to {@code cpus}, empty if it holds none of them. */
  private static Optional<CpuTreeNode> mask(CpuTreeNode node, CpuSet cpus) {
    if (!node.cpus().intersects(cpus)) {
      return Optional.empty();
    }
    List<CpuTreeNode> children = new ArrayList<>();
    for (CpuTreeNode child : node.children()) {
      mask(child, cpus).ifPresent(children::add);
    }
    return Optional.of(
        new CpuTreeNode(node.name(), node.level(), node.cpus().intersection(cpus), children));
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
