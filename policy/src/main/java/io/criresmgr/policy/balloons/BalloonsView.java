package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.PolicyMetrics.Gauge;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The balloons policy's state for {@code /introspect} and {@code /metrics}: per balloon its type,
 * CPUs, the idle CPUs it shares, memory nodes, CPU class, size limits and containers; and the free,
 * reserved and allowed CPUs and the CPU classes. Shared idle CPUs are keyed by balloon name ({@code
 * <type>[<index>]}); CPU classes map a class name to its CPUs.
 */
final class BalloonsView {
  /** Name of the per-balloon gauge, as cri-resmgr names it (no prefix). */
  static final String GAUGE = "balloons";

  static final String HELP = "CPUs of a balloon";

  private final SystemTopology topology;
  private final CpuTree tree;
  private final BalloonsOptions options;
  private final Map<String, BalloonType> types = new LinkedHashMap<>();
  private final CpuSet allowed;
  private final CpuSet reserved;

  BalloonsView(SystemTopology topology, BalloonsOptions options, CpuSet allowed, CpuSet reserved) {
    this.topology = Objects.requireNonNull(topology, "topology");
    this.tree = CpuTree.of(topology);
    this.options = Objects.requireNonNull(options, "options");
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    this.reserved = Objects.requireNonNull(reserved, "reserved");
    options.effectiveTypes().forEach(t -> types.put(t.name(), t));
  }

  /**
   * {@code {"balloons": [...], "freeCpus", "reservedCpus", "allowedCpus", "idleCpuClass",
   * "cpuClasses": {class: cpus}, "options": {...}}}; each balloon has name, type, index, fixed,
   * cpus, sharedIdleCpus, cpusAllowed, mems, numas, dies, packages, cpuClass, minCpus, maxCpus,
   * requestMilli and containers ({@code id}, {@code name} as {@code pod:container}, or {@code ""}
   * if the node does not know it, and {@code requestMilli}).
   */
  JsonNode introspect(
      List<Balloon> balloons,
      Map<String, CpuSet> sharedIdle,
      SortedMap<String, CpuSet> cpuClasses,
      NodeState node) {
    ObjectNode view = JsonNodeFactory.instance.objectNode();
    ArrayNode list = view.putArray("balloons");
    CpuSet used = CpuSet.EMPTY;
    for (Balloon b : balloons) {
      list.add(balloon(row(b, sharedIdle, node)));
      used = used.union(b.cpus());
    }
    view.put("freeCpus", allowed.difference(used).toString());
    view.put("reservedCpus", reserved.toString());
    view.put("allowedCpus", allowed.toString());
    view.put("idleCpuClass", options.idleCpuClass());
    ObjectNode classes = view.putObject("cpuClasses");
    cpuClasses.forEach((name, cpus) -> classes.put(name, cpus.toString()));
    view.set("options", options());
    return view;
  }

  /**
   * One gauge {@value #GAUGE} per balloon, valued its number of CPUs, labelled as cri-resmgr labels
   * it (docs/policy/balloons.md, "Introspection and metrics"): CPU sets as lists ({@code 1-3,5}),
   * topology elements as CPU tree names in tree order ({@code p0d0n1}), {@code mems} as
   * comma-separated node ids of the balloon's CPUs, {@code containers} as a sorted comma list of
   * {@code pod:container}, {@code cpus_max} 0 for no limit.
   */
  List<Gauge> gauges(List<Balloon> balloons, Map<String, CpuSet> sharedIdle, NodeState node) {
    List<Gauge> out = new ArrayList<>();
    for (Balloon b : balloons) {
      out.add(new Gauge(GAUGE, HELP, labels(row(b, sharedIdle, node)), b.cpus().size()));
    }
    return out;
  }

  private Row row(Balloon b, Map<String, CpuSet> sharedIdle, NodeState node) {
    BalloonType t = types.getOrDefault(b.type(), BalloonType.named(b.type()));
    CpuSet shared = sharedIdle.getOrDefault(b.name(), CpuSet.EMPTY);
    List<Member> members = new ArrayList<>();
    b.containers().forEach((id, milli) -> members.add(new Member(id, name(id, node), milli)));
    members.sort(Comparator.comparing(Member::sortKey));
    return new Row(b, t, shared, members);
  }

  /** cri-resmgr's pretty name {@code <pod>:<container>}, or null for an unknown container. */
  private static @Nullable String name(String cacheId, NodeState node) {
    Container c = node.containerOrNull(cacheId);
    if (c == null) {
      return null;
    }
    return node.pod(c.podId()).map(Pod::name).orElse(c.podId()) + ":" + c.name();
  }

  private ObjectNode balloon(Row r) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("name", r.balloon().name());
    n.put("type", r.balloon().type());
    n.put("index", r.balloon().index());
    n.put("fixed", r.balloon().fixed());
    n.put("cpus", r.balloon().cpus().toString());
    n.put("sharedIdleCpus", r.shared().toString());
    n.put("cpusAllowed", r.cpusAllowed().toString());
    n.put("mems", mems(r.balloon().cpus()));
    names(n.putArray("numas"), Level.NUMA, r.balloon().cpus());
    names(n.putArray("dies"), Level.DIE, r.balloon().cpus());
    names(n.putArray("packages"), Level.PACKAGE, r.balloon().cpus());
    n.put("cpuClass", r.type().cpuClass());
    n.put("minCpus", r.type().minCpus());
    n.put("maxCpus", r.type().maxCpus());
    n.put("requestMilli", r.balloon().requestMilli());
    containers(n.putArray("containers"), r.members());
    return n;
  }

  private static void containers(ArrayNode into, List<Member> members) {
    for (Member m : members) {
      ObjectNode c = into.addObject();
      c.put("id", m.cacheId());
      c.put("name", m.name() == null ? "" : m.name());
      c.put("requestMilli", m.milli());
    }
  }

  private void names(ArrayNode into, Level level, CpuSet cpus) {
    tree.names(level, cpus).forEach(into::add);
  }

  // Only containers the node knows count, as cri-resmgr skips those missing from its cache.
  private Map<String, String> labels(Row r) {
    Map<String, String> l = new HashMap<>();
    l.put("balloon_type", r.balloon().type());
    l.put("cpu_class", r.type().cpuClass());
    l.put("cpus_min", Integer.toString(r.type().minCpus()));
    l.put("cpus_max", Integer.toString(r.type().maxCpus()));
    l.put("balloon", r.balloon().name());
    cpus(l, "cpus", r.balloon().cpus());
    level(l, "numas", Level.NUMA, r.balloon().cpus());
    level(l, "dies", Level.DIE, r.balloon().cpus());
    level(l, "packages", Level.PACKAGE, r.balloon().cpus());
    cpus(l, "sharedidlecpus", r.shared());
    cpus(l, "cpus_allowed", r.cpusAllowed());
    l.put("mems", mems(r.balloon().cpus()));
    List<Member> known = r.members().stream().filter(m -> m.name() != null).toList();
    l.put("containers", known.stream().map(Member::name).collect(Collectors.joining(",")));
    l.put("tot_req_millicpu", Long.toString(known.stream().mapToLong(Member::milli).sum()));
    return l;
  }

  private static void cpus(Map<String, String> labels, String key, CpuSet cpus) {
    labels.put(key, cpus.toString());
    labels.put(key + "_count", Integer.toString(cpus.size()));
  }

  private void level(Map<String, String> labels, String key, Level level, CpuSet cpus) {
    List<String> names = tree.names(level, cpus);
    labels.put(key, String.join(",", names));
    labels.put(key + "_count", Integer.toString(names.size()));
  }

  /** The NUMA nodes holding {@code cpus}, e.g. {@code 0,1} (cri-resmgr's id set format). */
  private String mems(CpuSet cpus) {
    return topology.cpuNodes(cpus).stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  private ObjectNode options() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("PinCPU", options.pinCpu());
    o.put("PinMemory", options.pinMemory());
    o.put("IdleCPUClass", options.idleCpuClass());
    options.reservedPoolNamespaces().forEach(o.putArray("ReservedPoolNamespaces")::add);
    o.put("AllocatorTopologyBalancing", options.allocatorTopologyBalancing());
    o.put("PreferSpreadOnPhysicalCores", options.preferSpreadOnPhysicalCores());
    ArrayNode list = o.putArray("BalloonTypes");
    types.values().forEach(t -> list.add(type(t)));
    return o;
  }

  private ObjectNode type(BalloonType t) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("Name", t.name());
    t.namespaces().forEach(n.putArray("Namespaces")::add);
    n.put("MinCPUs", t.minCpus());
    n.put("MaxCPUs", t.maxCpus());
    n.put("MinBalloons", t.minBalloons());
    n.put("MaxBalloons", t.maxBalloons());
    n.put("AllocatorPriority", t.allocatorPriority().rank());
    n.put("CPUClass", t.cpuClass());
    ShareLevel share = t.shareIdleCpusInSame();
    n.put("ShareIdleCPUsInSame", share == null ? "" : share.label());
    n.put("PinMemory", options.pinMemory(t));
    return n;
  }

  /** A balloon with what the views show of it. */
  private record Row(Balloon balloon, BalloonType type, CpuSet shared, List<Member> members) {
    CpuSet cpusAllowed() {
      return balloon.cpus().union(shared);
    }
  }

  /** A container of a balloon; {@code name} is null if the node does not know it. */
  private record Member(String cacheId, @Nullable String name, long milli) {
    String sortKey() {
      return name == null ? cacheId : name;
    }
  }
}
