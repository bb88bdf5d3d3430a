package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.TopologySpec.DefaultDistances;
import io.criresmgr.policy.sysfs.TopologySpec.Group;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Numbers a spec's CPUs and nodes as the reference's {@code topology2qemuopts.py} does: groups in
 * order, in each packages, dies, nodes, cores and threads in order, so that CPUs are contiguous
 * node by node and a core's threads are consecutive. Core ids count from 0 in each package.
 * Physical package ids count only groups with cores; for default distances every package of every
 * group is its own package, so memory-only nodes are {@code dist-other-package} from everything
 * unless {@code node-dist} says otherwise. With {@code "numa":"off"} the nodes, laid out as usual,
 * merge into node 0, as a kernel sees a machine whose firmware disables NUMA. Caches: a unified L2
 * per core, or per {@code l2-cores} cores of a node, and a unified L3 per die, or per {@code
 * l3-cores} cores of a node.
 */
final class SpecLayout {
  private final TopologySpec spec;
  private final SortedMap<Integer, Cpu> cpus = new TreeMap<>();
  private final List<Placed> placed = new ArrayList<>();
  private final SortedMap<Integer, NumaNode> nodes = new TreeMap<>();
  private final Map<Integer, MemoryType> dax = new HashMap<>();
  private final List<CpuCache> caches = new ArrayList<>();
  private CpuSet present = CpuSet.EMPTY;
  private int nextCpu;
  private int physicalPackage;
  private int distancePackage;

  /** Where a node sits, for default distances; {@code pkg} counts packages of every group. */
  private record Placed(int id, int group, int pkg, int die, CpuSet cpus) {}

  /** Lays out {@code spec}. */
  SpecLayout(TopologySpec spec) {
    this.spec = spec;
    placeAll();
    typeNodes();
    if (!spec.numa()) {
      mergeNodes();
    }
  }

  /** One node 0 with every CPU and all memory (the spec has no memory-only groups). */
  private void mergeNodes() {
    long bytes = nodes.values().stream().mapToLong(NumaNode::memoryBytes).sum();
    NumaNode merged =
        new NumaNode(
            0, CpuSet.of(cpus.keySet()), bytes, MemoryType.DRAM, false, Map.of(0, 10), bytes > 0);
    nodes.clear();
    nodes.put(0, merged);
    cpus.replaceAll(
        (id, c) ->
            new Cpu(
                id,
                c.packageId(),
                c.dieId(),
                0,
                c.coreId(),
                c.threads(),
                c.frequency(),
                c.coreType()));
  }

  private void placeAll() {
    for (int gi = 0; gi < spec.groups().size(); gi++) {
      Group g = spec.groups().get(gi);
      for (int p = 0; p < g.packages(); p++) {
        placePackage(gi, g);
        physicalPackage += g.memoryOnly() ? 0 : 1;
        distancePackage++;
      }
    }
    int offline = spec.groups().stream().mapToInt(Group::cpusPresent).sum();
    present = CpuSet.range(0, nextCpu + offline - 1);
  }

  private void placePackage(int gi, Group g) {
    for (int d = 0; d < g.dies(); d++) {
      int dieFirst = nextCpu;
      for (int n = 0; n < g.nodes(); n++) {
        int first = nextCpu;
        for (int c = 0; c < g.cores(); c++) {
          placeCore(g, d, placed.size(), (d * g.nodes() + n) * g.cores() + c);
        }
        CpuSet nodeCpus = CpuSet.range(first, nextCpu - 1);
        placed.add(new Placed(placed.size(), gi, distancePackage, d, nodeCpus));
        caches(2, first, Math.max(1, g.l2Cores()) * g.threads());
        if (g.l3Cores() > 0) {
          caches(3, first, g.l3Cores() * g.threads());
        }
      }
      if (g.l3Cores() == 0 && nextCpu > dieFirst) {
        l3(CpuSet.range(dieFirst, nextCpu - 1));
      }
    }
  }

  private void l3(CpuSet cpus) {
    caches.add(new CpuCache(3, CpuCache.Type.UNIFIED, cpus));
  }

  /** Unified caches of {@code level}, each over {@code step} CPUs from {@code first} on. */
  private void caches(int level, int first, int step) {
    for (int from = first; from < nextCpu; from += step) {
      caches.add(new CpuCache(level, CpuCache.Type.UNIFIED, CpuSet.range(from, from + step - 1)));
    }
  }

  private void placeCore(Group g, int die, int node, int core) {
    CpuSet threads = CpuSet.range(nextCpu, nextCpu + g.threads() - 1);
    for (int t = 0; t < g.threads(); t++, nextCpu++) {
      cpus.put(
          nextCpu,
          new Cpu(nextCpu, physicalPackage, die, node, core, threads, g.cpufreq(), g.coreType()));
    }
  }

  private void typeNodes() {
    for (Placed n : placed) {
      Group g = spec.groups().get(n.group());
      if (!g.memoryOnly()) {
        nodes.put(n.id(), node(n, g, MemoryType.DRAM));
      }
    }
    long averageDram = MemoryTyping.averageDram(nodes.values());
    for (Placed n : placed) {
      Group g = spec.groups().get(n.group());
      if (g.memoryOnly()) {
        MemoryType type = g.memType();
        if (type == null) {
          type = MemoryTyping.bySize(g.memBytes(), averageDram);
        } else if (type != MemoryType.HBM) {
          dax.put(n.id(), type);
        }
        nodes.put(n.id(), node(n, g, type));
      }
    }
  }

  private NumaNode node(Placed n, Group g, MemoryType type) {
    boolean far = g.memoryOnly() && type == MemoryType.DRAM;
    return new NumaNode(n.id(), n.cpus(), g.memBytes(), type, far, distances(n), g.memBytes() > 0);
  }

  /** Default distances, then every group's {@code node-dist} in node order, both ways. */
  private Map<Integer, Integer> distances(Placed from) {
    Map<Integer, Integer> row = new HashMap<>();
    DefaultDistances defaults = spec.defaults();
    for (Placed to : placed) {
      int d = defaults.otherPackage();
      if (to.id() == from.id()) {
        d = 10;
      } else if (to.pkg() == from.pkg()) {
        d = to.die() == from.die() ? defaults.sameDie() : defaults.samePackage();
      }
      row.put(to.id(), d);
    }
    for (Placed other : placed) {
      Map<Integer, Integer> nodeDist = spec.groups().get(other.group()).nodeDist();
      if (other.id() == from.id()) {
        nodeDist.forEach((to, d) -> row.computeIfPresent(to, (k, v) -> k == from.id() ? v : d));
      } else if (nodeDist.containsKey(from.id())) {
        row.put(other.id(), nodeDist.get(from.id()));
      }
    }
    return row;
  }

  /** The topology the reader reads back from the written tree. */
  SystemTopology topology() {
    return new SystemTopology(cpus, nodes, present, spec.isolated(), caches());
  }

  /** The caches in the order the reader finds them: by CPU, then by level. */
  List<CpuCache> caches() {
    Map<Integer, List<CpuCache>> byCpu = new TreeMap<>();
    for (CpuCache c : caches) {
      c.cpus().stream().forEach(id -> byCpu.computeIfAbsent(id, k -> new ArrayList<>()).add(c));
    }
    java.util.LinkedHashSet<CpuCache> ordered = new java.util.LinkedHashSet<>();
    byCpu
        .values()
        .forEach(
            list ->
                list.stream()
                    .sorted(java.util.Comparator.comparingInt(CpuCache::level))
                    .forEach(ordered::add));
    return List.copyOf(ordered);
  }

  /** The online CPUs by id. */
  SortedMap<Integer, Cpu> cpus() {
    return cpus;
  }

  /** The nodes by id. */
  SortedMap<Integer, NumaNode> nodes() {
    return nodes;
  }

  /** Present CPUs: the online ones and the offline {@code cpus-present} ones after them. */
  CpuSet present() {
    return present;
  }

  /** Memory-only nodes that get a dax device: PMEM (NVDIMM) or DRAM (CXL). */
  Map<Integer, MemoryType> dax() {
    return dax;
  }
}
