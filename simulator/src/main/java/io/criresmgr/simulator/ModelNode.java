package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A node as the live view's model describes it ({@code /ui/node.json}, docs/ui.md), read back as
 * the simulator's {@link Observed} and {@link SystemTopology}, so that {@link PlacementReport}
 * prints a live node as it prints a simulated one. The model stands in for {@code /introspect}: it
 * has the pods' containers with their {@code cacheId} and {@code name}, and the {@code policyView}.
 *
 * @param observed the running containers, where the model places them
 * @param topology the topology of the model's packages and NUMA nodes
 */
record ModelNode(Observed observed, SystemTopology topology) {
  /**
   * Reads {@code model}.
   *
   * @throws IllegalArgumentException if it is not a model of format {@code 1} with a topology
   */
  static ModelNode of(JsonNode model) {
    int format = model.path("format").asInt(-1);
    if (format != 1) {
      throw new IllegalArgumentException(
          "format: " + model.path("format") + " is not a node model of format 1");
    }
    JsonNode t = model.path("topology");
    if (t.has("error")) {
      throw new IllegalArgumentException("topology.error: " + t.path("error").asText());
    }
    SystemTopology topology =
        new SystemTopology(
            cpus(t),
            nodes(t),
            CpuSet.parse(t.path("cpus").asText("")).union(cpuSet(t, "offline")),
            cpuSet(t, "isolated"));
    return new ModelNode(observed(model, topology), topology);
  }

  private static CpuSet cpuSet(JsonNode t, String field) {
    return CpuSet.parse(t.path(field).asText(""));
  }

  private static Map<Integer, Cpu> cpus(JsonNode t) {
    Map<Integer, Cpu> cpus = new TreeMap<>();
    for (JsonNode p : t.path("packages")) {
      for (JsonNode d : p.path("dies")) {
        for (JsonNode n : d.path("nodes")) {
          for (JsonNode cache : n.path("caches")) {
            for (JsonNode core : cache.path("cores")) {
              Set<Integer> threads = new HashSet<>();
              core.path("cpus").forEach(c -> threads.add(c.asInt()));
              for (int id : threads) {
                cpus.put(
                    id,
                    new Cpu(
                        id,
                        p.path("id").asInt(),
                        d.path("id").asInt(),
                        n.path("id").asInt(),
                        core.path("id").asInt(),
                        CpuSet.of(threads),
                        CpuFrequency.UNKNOWN,
                        CoreType.UNKNOWN));
              }
            }
          }
        }
      }
    }
    return cpus;
  }

  private static Map<Integer, NumaNode> nodes(JsonNode t) {
    Map<Integer, NumaNode> nodes = new TreeMap<>();
    for (JsonNode n : t.path("nodes")) {
      int id = n.path("id").asInt();
      String type = n.path("memoryType").asText("dram");
      nodes.put(
          id,
          new NumaNode(
              id,
              CpuSet.parse(n.path("cpus").asText("")),
              n.path("memoryBytes").asLong(),
              MemoryType.valueOf(type.toUpperCase(Locale.ROOT)),
              n.path("far").asBoolean(),
              Map.of(id, 10),
              true));
    }
    return nodes;
  }

  /**
   * The running containers, by pod and container name in natural order (the model has no creation
   * order); one with no CPUs or memory nodes (not pinned) may use them all.
   */
  private static Observed observed(JsonNode model, SystemTopology topology) {
    CpuSet allNodes = CpuSet.of(topology.nodes().keySet());
    List<ContainerFacts> found = new ArrayList<>();
    for (JsonNode pod : model.path("pods")) {
      for (JsonNode c : pod.path("containers")) {
        if (!c.path("state").asText().equals("running")) {
          continue;
        }
        found.add(facts(pod, c, topology, allNodes));
      }
    }
    found.sort(Comparator.comparing(c -> c.pod() + "/" + c.name(), Attribute.NATURAL));
    Map<String, ContainerFacts> running = new LinkedHashMap<>();
    Set<String> duplicates = new HashSet<>();
    for (ContainerFacts facts : found) {
      if (running.put(facts.name(), facts) != null) {
        duplicates.add(facts.name());
      }
    }
    return new Observed(running, running.keySet(), model, duplicates);
  }

  private static ContainerFacts facts(
      JsonNode pod, JsonNode c, SystemTopology topology, CpuSet allNodes) {
    CpuSet cpus = CpuSet.parse(c.path("cpus").asText(""));
    CpuSet mems = CpuSet.parse(c.path("mems").asText(""));
    return ContainerFacts.of(
        c.path("name").asText(),
        pod.path("name").asText(),
        pod.path("namespace").asText(),
        c.path("id").asText(),
        cpus.isEmpty() ? topology.onlineCpus() : cpus,
        mems.isEmpty() ? allNodes : mems,
        topology);
  }
}
