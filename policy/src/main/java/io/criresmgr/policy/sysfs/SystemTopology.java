package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The node's topology: online CPUs and NUMA nodes, with packages and dies derived from the CPUs,
 * and the CPU caches when sysfs describes them. Immutable; lookups are precomputed, so policies may
 * query it on every request.
 */
public final class SystemTopology {
  private final SortedMap<Integer, Cpu> cpus;
  private final SortedMap<Integer, NumaNode> nodes;
  private final CpuSet online;
  private final CpuSet present;
  private final CpuSet isolated;
  private final SortedMap<Integer, CpuSet> packageCpus = new TreeMap<>();
  private final SortedMap<Integer, SortedMap<Integer, CpuSet>> dieCpus = new TreeMap<>();
  private final int threadsPerCore;
  private final List<CpuCache> caches;

  /**
   * A topology without known caches; see {@link #SystemTopology(Map, Map, CpuSet, CpuSet, List)}.
   */
  public SystemTopology(
      Map<Integer, Cpu> cpus, Map<Integer, NumaNode> nodes, CpuSet present, CpuSet isolated) {
    this(cpus, nodes, present, isolated, List.of());
  }

  /**
   * A topology.
   *
   * @param cpus the online CPUs by id
   * @param nodes the NUMA nodes by id
   * @param present {@code cpu/present} (includes offline CPUs)
   * @param isolated {@code cpu/isolated}, kernel-isolated CPUs
   * @param caches the distinct CPU caches (empty if unknown)
   * @throws IllegalArgumentException if a CPU names a node that is missing or that does not list
   *     it, or a cache names a CPU that is not online
   */
  public SystemTopology(
      Map<Integer, Cpu> cpus,
      Map<Integer, NumaNode> nodes,
      CpuSet present,
      CpuSet isolated,
      List<CpuCache> caches) {
    this.cpus = Collections.unmodifiableSortedMap(new TreeMap<>(cpus));
    this.nodes = Collections.unmodifiableSortedMap(new TreeMap<>(nodes));
    this.online = CpuSet.of(this.cpus.keySet());
    this.present = Objects.requireNonNull(present, "present");
    this.isolated = Objects.requireNonNull(isolated, "isolated");
    int threads = 1;
    for (Cpu c : this.cpus.values()) {
      NumaNode n = this.nodes.get(c.nodeId());
      if (n == null || !n.cpus().contains(c.id())) {
        throw new IllegalArgumentException(
            "cpu" + c.id() + " is in node" + c.nodeId() + ", which does not list it");
      }
      packageCpus.merge(c.packageId(), CpuSet.of(c.id()), CpuSet::union);
      dieCpus
          .computeIfAbsent(c.packageId(), p -> new TreeMap<>())
          .merge(c.dieId(), CpuSet.of(c.id()), CpuSet::union);
      threads = Math.max(threads, c.threads().size());
    }
    this.threadsPerCore = threads;
    this.caches = List.copyOf(caches);
    for (CpuCache c : this.caches) {
      if (!c.cpus().difference(online).isEmpty()) {
        throw new IllegalArgumentException(
            "L" + c.level() + " cache of CPUs " + c.cpus() + " names CPUs that are not online");
      }
    }
  }

  /** Online CPUs. */
  public CpuSet onlineCpus() {
    return online;
  }

  /** Present CPUs (online or not). */
  public CpuSet presentCpus() {
    return present;
  }

  /** Kernel-isolated CPUs ({@code isolcpus}), restricted to online ones. */
  public CpuSet isolatedCpus() {
    return isolated.intersection(online);
  }

  /** Present CPUs that are offline. */
  public CpuSet offlineCpus() {
    return present.difference(online);
  }

  /** Every online CPU by id. */
  public SortedMap<Integer, Cpu> cpus() {
    return cpus;
  }

  /** Every NUMA node by id. */
  public SortedMap<Integer, NumaNode> nodes() {
    return nodes;
  }

  /** The online CPU {@code id}. */
  public Cpu cpu(int id) {
    Cpu c = cpus.get(id);
    if (c == null) {
      throw new IllegalArgumentException("no online cpu" + id);
    }
    return c;
  }

  /** NUMA node {@code id}. */
  public NumaNode node(int id) {
    NumaNode n = nodes.get(id);
    if (n == null) {
      throw new IllegalArgumentException("no NUMA node " + id);
    }
    return n;
  }

  /** Package ids, ascending. */
  public List<Integer> packageIds() {
    return List.copyOf(packageCpus.keySet());
  }

  /** Die ids of package {@code pkg}, ascending. */
  public List<Integer> dieIds(int pkg) {
    return List.copyOf(dieCpus.getOrDefault(pkg, new TreeMap<>()).keySet());
  }

  /** Online CPUs of package {@code pkg}. */
  public CpuSet packageCpus(int pkg) {
    return packageCpus.getOrDefault(pkg, CpuSet.EMPTY);
  }

  /** Online CPUs of die {@code die} of package {@code pkg}. */
  public CpuSet dieCpus(int pkg, int die) {
    return dieCpus.getOrDefault(pkg, new TreeMap<>()).getOrDefault(die, CpuSet.EMPTY);
  }

  /** Ids of the nodes with CPUs in package {@code pkg}, ascending. */
  public List<Integer> packageNodes(int pkg) {
    return cpuNodes(packageCpus(pkg));
  }

  /** Ids of the nodes with CPUs in die {@code die} of package {@code pkg}, ascending. */
  public List<Integer> dieNodes(int pkg, int die) {
    return cpuNodes(dieCpus(pkg, die));
  }

  /** Ids of the nodes holding any of {@code set}'s CPUs, ascending. */
  public List<Integer> cpuNodes(CpuSet set) {
    TreeSet<Integer> ids = new TreeSet<>();
    set.stream()
        .forEach(
            id -> {
              Cpu cpu = cpus.get(id);
              if (cpu != null) {
                ids.add(cpu.nodeId());
              }
            });
    return new ArrayList<>(ids);
  }

  /** Ids of the nodes of {@code type}, ascending. */
  public List<Integer> nodesOfType(MemoryType type) {
    return nodes.values().stream().filter(n -> n.memoryType() == type).map(NumaNode::id).toList();
  }

  /** The distance between nodes {@code a} and {@code b}. */
  public int distance(int a, int b) {
    return node(a).distance(b);
  }

  /** The largest number of hyperthreads of one core. */
  public int threadsPerCore() {
    return threadsPerCore;
  }

  /** The hyperthreads of {@code cpu}'s core (online ones). */
  public CpuSet coreCpus(int cpu) {
    return cpu(cpu).threads().intersection(online);
  }

  /** The distinct CPU caches; empty if sysfs does not describe them. */
  public List<CpuCache> caches() {
    return caches;
  }

  /**
   * The CPU sets of the data or unified caches of {@code level}, each once, ordered by lowest CPU;
   * e.g. level 3 gives the CPUs sharing each L3 cache (an AMD CCX). Empty if none is known.
   */
  public List<CpuSet> cacheGroups(int level) {
    TreeMap<Integer, CpuSet> groups = new TreeMap<>();
    for (CpuCache c : caches) {
      if (c.level() == level && c.holdsData()) {
        groups.putIfAbsent(c.cpus().stream().min().orElseThrow(), c.cpus());
      }
    }
    return List.copyOf(groups.values());
  }
}
