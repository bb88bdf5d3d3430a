package io.criresmgr.simulator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Where a running container is, as the runtime reports it in {@code ContainerStatus}, with every
 * {@link Attribute} derived from the topology.
 *
 * @param name container name (e.g. {@code pod0c1})
 * @param pod pod name
 * @param namespace pod namespace
 * @param id runtime container id
 * @param cpus the cpuset (all online CPUs when the runtime reports none)
 * @param mems the memory nodes (all nodes when the runtime reports none)
 * @param sets the items of every attribute
 */
public record ContainerFacts(
    String name,
    String pod,
    String namespace,
    String id,
    CpuSet cpus,
    CpuSet mems,
    Map<Attribute, SortedSet<String>> sets) {

  /** Copies the map. */
  public ContainerFacts {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(mems, "mems");
    sets = Map.copyOf(sets);
  }

  /** The facts of a container with {@code cpus} and {@code mems} on {@code topology}. */
  static ContainerFacts of(
      String name,
      String pod,
      String namespace,
      String id,
      CpuSet cpus,
      CpuSet mems,
      SystemTopology topology) {
    Map<Attribute, SortedSet<String>> sets = new EnumMap<>(Attribute.class);
    for (Attribute a : Attribute.values()) {
      sets.put(a, new TreeSet<>(Attribute.NATURAL));
    }
    cpus.stream().forEach(id2 -> addCpu(sets, id2, topology));
    mems.stream().forEach(n -> sets.get(Attribute.MEMS).add("node" + n));
    sets.replaceAll((a, s) -> Collections.unmodifiableSortedSet(s));
    return new ContainerFacts(name, pod, namespace, id, cpus, mems, sets);
  }

  private static void addCpu(Map<Attribute, SortedSet<String>> sets, int id, SystemTopology t) {
    sets.get(Attribute.CPUS).add("cpu" + id);
    Cpu cpu = t.cpus().get(id);
    if (cpu == null) {
      return; // an offline or unknown CPU: only its number is known
    }
    String node = "node" + cpu.nodeId();
    String core = node + "/core" + cpu.coreId();
    List<Integer> siblings = cpu.threads().stream().boxed().toList();
    sets.get(Attribute.NODES).add(node);
    sets.get(Attribute.PACKAGES).add("package" + cpu.packageId());
    sets.get(Attribute.DIES).add("package" + cpu.packageId() + "/die" + cpu.dieId());
    sets.get(Attribute.CORES).add(core);
    sets.get(Attribute.THREADS).add(core + "/thread" + siblings.indexOf(id));
  }

  /** The items of {@code attribute}. */
  public SortedSet<String> set(Attribute attribute) {
    return sets.get(attribute);
  }
}
