package io.criresmgr.proxy.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code topology} of the model: packages, dies, the NUMA nodes' CPUs within each die, grouped
 * by L3 cache where sysfs describes caches, then cores and their hyperthreads; and every NUMA node
 * with its memory. A node or L3 cache that spans dies appears in each, with that die's CPUs.
 */
final class TopologyJson {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private TopologyJson() {}

  /** The model's {@code topology} object. */
  static ObjectNode write(SystemTopology t) {
    ObjectNode out = JSON.objectNode();
    out.put("cpus", t.onlineCpus().toString());
    out.put("isolated", t.isolatedCpus().toString());
    out.put("offline", t.offlineCpus().toString());
    ArrayNode packages = out.putArray("packages");
    for (int pkg : t.packageIds()) {
      ObjectNode p = packages.addObject();
      p.put("id", pkg);
      p.put("cpus", t.packageCpus(pkg).toString());
      ArrayNode dies = p.putArray("dies");
      for (int die : t.dieIds(pkg)) {
        dies.add(die(t, pkg, die));
      }
    }
    ArrayNode nodes = out.putArray("nodes");
    t.nodes().values().forEach(n -> nodes.add(memory(n)));
    return out;
  }

  /** A topology that could not be read: no packages, no nodes, and why. */
  static ObjectNode unknown(String why) {
    ObjectNode out = JSON.objectNode();
    out.put("error", why);
    out.put("cpus", "");
    out.putArray("packages");
    out.putArray("nodes");
    return out;
  }

  private static ObjectNode die(SystemTopology t, int pkg, int die) {
    CpuSet cpus = t.dieCpus(pkg, die);
    ObjectNode d = JSON.objectNode();
    d.put("id", die);
    d.put("cpus", cpus.toString());
    ArrayNode nodes = d.putArray("nodes");
    for (int id : t.dieNodes(pkg, die)) {
      CpuSet nodeCpus = t.node(id).cpus().intersection(cpus);
      ObjectNode n = nodes.addObject();
      n.put("id", id);
      n.put("cpus", nodeCpus.toString());
      ArrayNode groups = n.putArray("caches");
      cacheGroups(t, nodeCpus).forEach(g -> groups.add(group(t, g, nodeCpus)));
    }
    return d;
  }

  /** The L3 caches sharing {@code cpus}, then a group of the CPUs of no known L3 (null). */
  private static List<CpuSet> cacheGroups(SystemTopology t, CpuSet cpus) {
    List<CpuSet> groups = new ArrayList<>();
    CpuSet left = cpus;
    for (CpuSet l3 : t.cacheGroups(3)) {
      if (l3.intersects(cpus)) {
        groups.add(l3);
        left = left.difference(l3);
      }
    }
    if (!left.isEmpty()) {
      groups.add(CpuSet.EMPTY);
    }
    return groups;
  }

  private static ObjectNode group(SystemTopology t, CpuSet l3, CpuSet nodeCpus) {
    ObjectNode g = JSON.objectNode();
    CpuSet cpus;
    if (l3.isEmpty()) {
      g.putNull("l3");
      CpuSet cached = CpuSet.EMPTY;
      for (CpuSet c : t.cacheGroups(3)) {
        cached = cached.union(c);
      }
      cpus = nodeCpus.difference(cached);
    } else {
      g.put("l3", l3.toString());
      cpus = nodeCpus.intersection(l3);
    }
    g.put("cpus", cpus.toString());
    g.set("cores", cores(t, cpus));
    return g;
  }

  /** {@code [{"id": coreId, "cpus": [thread, ...]}]}, each core once, in CPU order. */
  private static ArrayNode cores(SystemTopology t, CpuSet cpus) {
    ArrayNode cores = JSON.arrayNode();
    CpuSet seen = CpuSet.EMPTY;
    for (int cpu : cpus.stream().toArray()) {
      if (seen.contains(cpu)) {
        continue;
      }
      CpuSet threads = t.coreCpus(cpu).intersection(cpus);
      seen = seen.union(threads);
      ObjectNode core = cores.addObject();
      core.put("id", t.cpu(cpu).coreId());
      ArrayNode ids = core.putArray("cpus");
      threads.stream().forEach(ids::add);
    }
    return cores;
  }

  private static ObjectNode memory(NumaNode n) {
    ObjectNode m = JSON.objectNode();
    m.put("id", n.id());
    m.put("cpus", n.cpus().toString());
    m.put("memoryType", n.memoryType().label());
    m.put("memoryBytes", n.memoryBytes());
    m.put("far", n.far());
    return m;
  }
}
