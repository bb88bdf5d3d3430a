package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The memory nodes ({@code cpuset.mems}) of containers pinned to some CPUs, by memory type:
 *
 * <p>for every type asked for, each NUMA node of the CPUs adds the nodes with memory of that type
 * at the smallest distance from it (all of them on a tie), itself included if it has memory. So
 * DRAM is the CPUs' own nodes; a CXL memory expander (memory-only DRAM) is used only by CPU nodes
 * without memory of their own, and PMEM and HBM come from the closest memory-only nodes of those
 * types.
 *
 * <p>No types means DRAM (as nri-plugins and cri-resmgr). Types the system lacks are ignored; if
 * none is left the CPU nodes are used, and so they are if the rule finds no node at all.
 */
final class MemoryNodes {
  private final SystemTopology topology;
  private final Set<MemoryType> present;
  private final Map<Integer, Map<MemoryType, List<Integer>>> nearest = new HashMap<>();

  MemoryNodes(SystemTopology topology) {
    this.topology = Objects.requireNonNull(topology, "topology");
    Set<MemoryType> types = EnumSet.noneOf(MemoryType.class);
    topology.nodes().values().forEach(n -> types.add(n.memoryType()));
    this.present = Collections.unmodifiableSet(types);
    for (NumaNode n : topology.nodes().values()) {
      if (!n.memoryOnly()) {
        nearest.put(n.id(), nearestMemory(n));
      }
    }
  }

  /** The memory types of the system's nodes. */
  Set<MemoryType> present() {
    return present;
  }

  /** The memory nodes of containers on {@code cpus} that use {@code types} (empty: DRAM). */
  CpuSet of(CpuSet cpus, Set<MemoryType> types) {
    List<Integer> cpuNodes = topology.cpuNodes(cpus);
    Set<MemoryType> wanted = EnumSet.copyOf(present);
    wanted.retainAll(types.isEmpty() ? EnumSet.of(MemoryType.DRAM) : types);
    if (wanted.isEmpty()) {
      return CpuSet.of(cpuNodes);
    }
    TreeSet<Integer> out = new TreeSet<>();
    for (int node : cpuNodes) {
      Map<MemoryType, List<Integer>> close = nearest.getOrDefault(node, Map.of());
      wanted.forEach(t -> out.addAll(close.getOrDefault(t, List.of())));
    }
    return out.isEmpty() ? CpuSet.of(cpuNodes) : CpuSet.of(out);
  }

  private Map<MemoryType, List<Integer>> nearestMemory(NumaNode from) {
    Map<MemoryType, Integer> best = new EnumMap<>(MemoryType.class);
    Map<MemoryType, List<Integer>> out = new EnumMap<>(MemoryType.class);
    for (NumaNode n : topology.nodes().values()) {
      boolean candidate = n.memoryOnly() || (n.id() == from.id() && n.memoryBytes() > 0);
      if (!candidate) {
        continue;
      }
      MemoryType t = n.memoryType();
      int d = from.distance(n.id());
      Integer known = best.get(t);
      if (known == null || d < known) {
        best.put(t, d);
        out.put(t, new ArrayList<>(List.of(n.id())));
      } else if (d == known) {
        Objects.requireNonNull(out.get(t), "a list for every type in best").add(n.id());
      }
    }
    out.replaceAll((t, ids) -> List.copyOf(ids));
    return out;
  }
}
