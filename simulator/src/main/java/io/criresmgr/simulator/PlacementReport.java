package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints a placement: one row per running container (pod/container, CPUs, memory nodes, NUMA nodes
 * of the CPUs, pool when the policy tells it) and a per-NUMA-node summary (the node's CPUs used by
 * exactly one container, by several, by none, and the containers on it), and, with the balloons
 * policy, one row per balloon (type, CPUs, their NUMA nodes, containers).
 */
final class PlacementReport {
  private PlacementReport() {}

  /**
   * The placement table, the NUMA summary and the balloons (if the policy has any), each line
   * ending in a newline.
   */
  static String format(Observed observed, SystemTopology topology) {
    StringBuilder out = new StringBuilder();
    Map<String, String> pools = PoolNames.of(observed.introspection());
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"POD/CONTAINER", "CPUS", "MEMS", "NODES", "POOL"});
    for (ContainerFacts c : observed.running().values()) {
      rows.add(
          new String[] {
            c.pod() + "/" + c.name(),
            c.cpus().toString(),
            c.mems().toString(),
            ids(c.set(Attribute.NODES)),
            pools.getOrDefault(c.name(), "-")
          });
    }
    table(out, rows);
    out.append('\n');
    table(out, numaRows(observed, topology));
    List<BalloonsView.Entry> balloons = BalloonsView.of(observed.introspection());
    if (!balloons.isEmpty()) {
      out.append('\n');
      table(out, balloonRows(balloons, topology));
    }
    optionalTable(out, classRows(observed.introspection()));
    optionalTable(out, hintRows(observed.introspection()));
    return out.toString();
  }

  // A table after a blank line, if it has rows besides its header.
  private static void optionalTable(StringBuilder out, List<String[]> rows) {
    if (rows.size() > 1) {
      out.append('\n');
      table(out, rows);
    }
  }

  /** The policy's CPU classes ({@code policyView.cpuClasses}: class name to CPUs). */
  private static List<String[]> classRows(JsonNode introspection) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"CPU CLASS", "CPUS"});
    introspection
        .path("policyView")
        .path("cpuClasses")
        .properties()
        .forEach(
            e -> rows.add(new String[] {e.getKey(), show(CpuSet.parse(e.getValue().asText("")))}));
    return rows;
  }

  /** The device hints of every container that has some, in the introspection's order. */
  private static List<String[]> hintRows(JsonNode introspection) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"POD/CONTAINER", "DEVICE", "CPUS", "NUMA NODES"});
    for (JsonNode pod : introspection.path("pods")) {
      for (JsonNode c : pod.path("containers")) {
        for (JsonNode h : c.path("topologyHints")) {
          rows.add(
              new String[] {
                pod.path("name").asText() + "/" + c.path("name").asText(),
                h.path("provider").asText(),
                dash(h.path("cpus").asText("")),
                dash(h.path("numas").asText(""))
              });
        }
      }
    }
    return rows;
  }

  private static String dash(String value) {
    return value.isEmpty() ? "-" : value;
  }

  private static List<String[]> balloonRows(
      List<BalloonsView.Entry> balloons, SystemTopology topology) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"BALLOON", "TYPE", "CPUS", "NODES", "CONTAINERS"});
    for (BalloonsView.Entry b : balloons) {
      List<String> nodes = new ArrayList<>();
      for (NumaNode node : topology.nodes().values()) {
        if (b.cpus().intersects(node.cpus())) {
          nodes.add(String.valueOf(node.id()));
        }
      }
      rows.add(
          new String[] {
            b.name(),
            b.type().isEmpty() ? "-" : b.type(),
            show(b.cpus()),
            nodes.isEmpty() ? "-" : String.join(",", nodes),
            b.containers().isEmpty() ? "-" : String.join(",", b.containers())
          });
    }
    return rows;
  }

  private static List<String[]> numaRows(Observed observed, SystemTopology topology) {
    Map<Integer, Integer> users = new HashMap<>();
    for (ContainerFacts c : observed.running().values()) {
      c.cpus().stream().forEach(cpu -> users.merge(cpu, 1, Integer::sum));
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"NODE", "CPUS", "ALONE", "SHARED", "IDLE", "CONTAINERS"});
    for (NumaNode node : topology.nodes().values()) {
      CpuSet one =
          CpuSet.of(
              node.cpus().stream().filter(c -> users.getOrDefault(c, 0) == 1).boxed().toList());
      CpuSet many =
          CpuSet.of(
              node.cpus().stream().filter(c -> users.getOrDefault(c, 0) > 1).boxed().toList());
      CpuSet idle = node.cpus().difference(one).difference(many);
      List<String> on = new ArrayList<>();
      for (ContainerFacts c : observed.running().values()) {
        if (c.cpus().intersects(node.cpus())
            || (node.memoryOnly() && c.mems().contains(node.id()))) {
          on.add(c.name());
        }
      }
      String type = (node.far() ? "far " : "") + node.memoryType().label();
      String kind = node.memoryOnly() ? " (" + type + ", no CPUs)" : "";
      rows.add(
          new String[] {
            "node" + node.id() + kind,
            show(node.cpus()),
            show(one),
            show(many),
            show(idle),
            on.isEmpty() ? "-" : String.join(",", on)
          });
    }
    return rows;
  }

  private static String show(CpuSet set) {
    return set.isEmpty() ? "-" : set.size() + " (" + set + ")";
  }

  private static String ids(java.util.Collection<String> names) {
    List<String> ids = names.stream().map(n -> n.replaceAll("\\D", "")).toList();
    return ids.isEmpty() ? "-" : String.join(",", ids);
  }

  private static void table(StringBuilder out, List<String[]> rows) {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
