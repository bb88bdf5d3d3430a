package io.criresmgr.simulator;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
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
    Map<Attribute, NavigableSet<String>> sets) {

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
    Map<Attribute, NavigableSet<String>> sets = new EnumMap<>(Attribute.class);
    for (Attribute a : Attribute.values()) {
      sets.put(a, new TreeSet<>(Attribute.NATURAL));
    }
    cpus.stream().forEach(id2 -> addCpu(sets, id2, topology));
    mems.stream().forEach(n -> items(sets, Attribute.MEMS).add("node" + n));
    sets.replaceAll((a, s) -> Collections.unmodifiableNavigableSet(s));
    return new ContainerFacts(name, pod, namespace, id, cpus, mems, sets);
  }

  private static void addCpu(Map<Attribute, NavigableSet<String>> sets, int id, SystemTopology t) {
    items(sets, Attribute.CPUS).add("cpu" + id);
    Cpu cpu = t.cpus().get(id);
    if (cpu == null) {
      return; // an offline or unknown CPU: only its number is known
    }
    String node = "node" + cpu.nodeId();
    String core = node + "/core" + cpu.coreId();
    List<Integer> siblings = cpu.threads().stream().boxed().toList();
    items(sets, Attribute.NODES).add(node);
    items(sets, Attribute.PACKAGES).add("package" + cpu.packageId());
    items(sets, Attribute.DIES).add("package" + cpu.packageId() + "/die" + cpu.dieId());
    items(sets, Attribute.CORES).add(core);
    items(sets, Attribute.THREADS).add(core + "/thread" + siblings.indexOf(id));
  }

  /** The items of {@code attribute}. */
  public NavigableSet<String> set(Attribute attribute) {
    return items(sets, attribute);
  }

  private static NavigableSet<String> items(
      Map<Attribute, NavigableSet<String>> sets, Attribute attribute) {
    NavigableSet<String> items = sets.get(attribute);
    if (items == null) {
      throw new IllegalArgumentException(
          "no items of attribute " + attribute + " (only of " + sets.keySet() + ")");
    }
    return items;
  }
}
