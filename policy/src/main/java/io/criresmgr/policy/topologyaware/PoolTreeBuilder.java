package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the {@link PoolTree} from the system topology as cri-resmgr's {@code buildPoolsByTopology}
 * does: a virtual root only with more than one socket, die pools only for sockets with two or more
 * dies, a NUMA pool per node with CPUs unless it is the only such node of its die or socket (the
 * die or socket then stands in for it), a node spanning sockets or dies (NUMA disabled in firmware)
 * shared by the socket or die pools holding its CPUs, and every memory-only node (PMEM, HBM, CXL)
 * attached to the pool of the closest node with CPUs (ties: the pool with the fewest attached nodes
 * so far, then the lowest node id). Below that, as nri-plugins does not: where L3 caches split such
 * a leaf pool (an AMD EPYC node with several CCXs), a pool per L3 cache, each supplying its CPUs
 * and the leaf's memory in proportion to them; a leaf with one L3 cache stays a leaf.
 */
final class PoolTreeBuilder {
  private static final Logger LOG = LoggerFactory.getLogger(PoolTreeBuilder.class);

  private final SystemTopology topology;
  private final CpuSet allowed;
  private final CpuSet reserved;
  private final CpuSet isolated;
  private final Map<Integer, Draft> sockets = new LinkedHashMap<>();
  private final Map<String, Draft> dies = new LinkedHashMap<>();
  private final Map<Integer, Draft> surrogates = new LinkedHashMap<>();
  private final Map<Draft, List<Integer>> assigned = new LinkedHashMap<>(); // Draft: identity
  private Draft root = new Draft("root", PoolKind.VIRTUAL, null);
  private final boolean anyMemory;

  private PoolTreeBuilder(SystemTopology topology, CpuSet allowed, CpuSet reserved) {
    this.topology = topology;
    this.allowed = allowed;
    this.reserved = reserved;
    this.isolated = topology.isolatedCpus().intersection(allowed).difference(reserved);
    this.anyMemory = topology.nodes().values().stream().anyMatch(n -> n.memoryBytes() > 0);
  }

  /**
   * The pool tree of {@code topology} supplying the {@code allowed} CPUs, {@code reserved} ones
   * among them kept for reserved requests; allowed kernel-isolated CPUs that are not reserved are
   * supplied as isolated.
   *
   * @throws PolicyException if a NUMA node spanning sockets or dies is not the only node of each,
   *     or NUMA distances are asymmetric
   */
  static PoolTree build(SystemTopology topology, CpuSet allowed, CpuSet reserved) {
    TopologyChecks.check(topology);
    return new PoolTreeBuilder(topology, allowed, reserved).build();
  }

  private PoolTree build() {
    createSockets();
    createDies();
    List<Integer> memoryOnly = createNumaPools();
    for (int node : memoryOnly) {
      assignMemoryOnly(node);
    }
    for (Draft leaf : List.copyOf(assigned.keySet())) {
      splitByL3(leaf);
    }
    List<Draft> order = new ArrayList<>();
    postOrder(root, 0, order);
    List<Pool> pools = new ArrayList<>();
    for (Draft d : order) {
      pools.add(d.toPool());
    }
    PoolTree tree = new PoolTree(pools, allowed, reserved, isolated);
    logTree(tree);
    return tree;
  }

  private void createSockets() {
    List<Integer> packages = topology.packageIds();
    for (int pkg : packages) {
      Draft socket;
      if (packages.size() > 1) {
        socket = new Draft("socket #" + pkg, PoolKind.SOCKET, root);
      } else {
        root = new Draft("socket #" + pkg, PoolKind.SOCKET, null);
        socket = root;
      }
      socket.scope = topology.packageCpus(pkg);
      sockets.put(pkg, socket);
    }
  }

  private void createDies() {
    sockets.forEach(
        (pkg, socket) -> {
          List<Integer> dies = topology.dieIds(pkg);
          if (dies.size() < 2) {
            return;
          }
          for (int die : dies) {
            Draft d = new Draft("die #" + pkg + "/" + die, PoolKind.DIE, socket);
            d.scope = topology.dieCpus(pkg, die);
            this.dies.put(pkg + "/" + die, d);
          }
        });
  }

  /** Creates NUMA pools or records surrogates; returns the memory-only nodes. */
  private List<Integer> createNumaPools() {
    List<Integer> memoryOnly = new ArrayList<>();
    for (NumaNode node : topology.nodes().values()) {
      if (node.memoryOnly()) {
        memoryOnly.add(node.id());
        continue;
      }
      List<Draft> holders = holders(node);
      if (holders.size() > 1) {
        shareNode(node, holders);
        continue;
      }
      Draft parent = holders.get(0);
      Draft pool =
          nodesOf(parent).size() < 2
              ? parent
              : new Draft("NUMA node #" + node.id(), PoolKind.NUMA, parent);
      surrogates.put(node.id(), pool);
      assigned.computeIfAbsent(pool, p -> new ArrayList<>()).add(node.id());
    }
    return memoryOnly;
  }

  /** The die (if its socket has several) or socket pools holding the node's CPUs, in CPU order. */
  private List<Draft> holders(NumaNode node) {
    Set<Draft> holders = new LinkedHashSet<>();
    node.cpus().stream()
        .mapToObj(topology::cpu)
        .forEach(
            c ->
                holders.add(
                    dies.getOrDefault(
                        c.packageId() + "/" + c.dieId(), sockets.get(c.packageId()))));
    return List.copyOf(holders);
  }

  /** The nodes with CPUs in a socket or die pool. */
  private List<Integer> nodesOf(Draft holder) {
    return topology.cpuNodes(holder.holderScope());
  }

  /**
   * A node spanning sockets or dies (NUMA disabled in firmware, or nodes interleaved across
   * sockets) has no pool of its own: each socket or die holding its CPUs takes it as its only node,
   * with a share of its memory in proportion to the CPUs, so that the shares add up to the node.
   *
   * @throws PolicyException if the node shares one of those sockets or dies with another node
   */
  private void shareNode(NumaNode node, List<Draft> holders) {
    long bytes = node.memoryBytes();
    int total = node.cpus().size();
    int before = 0;
    for (Draft holder : holders) {
      if (nodesOf(holder).size() > 1) {
        throw new PolicyException(
            "topology-aware: unhandled HW topology: NUMA node #"
                + node.id()
                + " spans "
                + holders.stream().map(h -> h.name).collect(Collectors.joining(", "))
                + " but "
                + holder.name
                + " also has NUMA node(s) #"
                + nodesOf(holder).stream()
                    .filter(n -> n != node.id())
                    .map(String::valueOf)
                    .collect(Collectors.joining(",#"))
                + "; a NUMA node spanning sockets or dies must be the only node of each");
      }
      int mine = node.cpus().intersection(holder.holderScope()).size();
      holder.shares.put(node.id(), bytes * (before + mine) / total - bytes * before / total);
      before += mine;
      surrogates.putIfAbsent(node.id(), holder);
      assigned.computeIfAbsent(holder, p -> new ArrayList<>()).add(node.id());
    }
    LOG.info(
        "NUMA node #{} spans {}: each supplies it, with memory in proportion to its CPUs",
        node.id(),
        holders.stream().map(h -> h.name).collect(Collectors.joining(", ")));
  }

  private void assignMemoryOnly(int memNode) {
    int best = Integer.MAX_VALUE;
    List<Integer> closest = new ArrayList<>();
    for (int cpuNode : surrogates.keySet()) {
      int d = topology.distance(memNode, cpuNode);
      if (d < best) {
        best = d;
        closest.clear();
      }
      if (d == best) {
        closest.add(cpuNode);
      }
    }
    Draft taker = surrogate(closest.get(0));
    for (int candidate : closest.subList(1, closest.size())) {
      Draft other = surrogate(candidate);
      if (assignedTo(taker).size() > assignedTo(other).size()) {
        taker = other;
      }
    }
    assignedTo(taker).add(memNode);
    NumaNode node = topology.node(memNode);
    String label = node.far() ? "CXL" : node.memoryType().name();
    LOG.info("{} node #{} assigned to {} (distance {})", label, memNode, taker.name, best);
  }

  /** The pool standing for the NUMA node with CPUs {@code cpuNode}; every such node has one. */
  private Draft surrogate(int cpuNode) {
    return Objects.requireNonNull(
        surrogates.get(cpuNode), () -> "no pool for NUMA node #" + cpuNode);
  }

  /** The nodes assigned to {@code pool}, which must have some. */
  private List<Integer> assignedTo(Draft pool) {
    return Objects.requireNonNull(assigned.get(pool), () -> pool.name + " has no nodes");
  }

  /**
   * Gives {@code leaf} a child per L3 cache if its allowed CPUs span two or more; each child takes
   * the leaf's nodes, their memory shared in proportion to the child's allowed CPUs.
   */
  private void splitByL3(Draft leaf) {
    List<Integer> nodes = assignedTo(leaf);
    CpuSet cpus = CpuSet.EMPTY;
    for (int id : nodes) {
      cpus = cpus.union(topology.node(id).cpus());
    }
    cpus = cpus.intersection(allowed);
    if (leaf.scope != null) {
      cpus = cpus.intersection(leaf.scope);
    }
    List<CpuSet> l3s = topology.cacheGroups(3);
    Map<Integer, CpuSet> parts = new LinkedHashMap<>();
    for (int i = 0; i < l3s.size(); i++) {
      CpuSet part = l3s.get(i).intersection(cpus);
      if (!part.isEmpty()) {
        parts.put(i, part);
      }
    }
    if (parts.size() < 2 || parts.values().stream().mapToInt(CpuSet::size).sum() != cpus.size()) {
      return;
    }
    int before = 0;
    for (Map.Entry<Integer, CpuSet> e : parts.entrySet()) {
      Draft child = new Draft("L3 cache #" + e.getKey(), PoolKind.L3_CACHE, leaf);
      child.scope = e.getValue();
      int mine = e.getValue().size();
      for (int id : nodes) {
        long bytes = leaf.shares.getOrDefault(id, topology.node(id).memoryBytes());
        child.shares.put(id, bytes * (before + mine) / cpus.size() - bytes * before / cpus.size());
      }
      before += mine;
      assigned.put(child, nodes);
    }
  }

  private int postOrder(Draft d, int depth, List<Draft> order) {
    d.depth = depth;
    for (Draft c : d.children) {
      postOrder(c, depth + 1, order);
    }
    d.id = order.size();
    order.add(d);
    return d.id;
  }

  private void logTree(PoolTree tree) {
    for (Pool p : tree.pools()) {
      LOG.info(
          "pool #{} {}: isolated {}, reserved {}, sharable {}, memory {}, nodes {}",
          p.id(),
          p.name(),
          p.isolated(),
          p.reserved(),
          p.sharable(),
          p.memory(),
          p.memset());
    }
  }

  /** A pool under construction. */
  private final class Draft {
    final String name;
    final PoolKind kind;
    final @Nullable Draft parent;
    final List<Draft> children = new ArrayList<>();

    /** A socket's or die's CPUs (null: not limited); a node spanning several gives each its own. */
    @Nullable CpuSet scope;

    /** Node id to the bytes of a node spanning several sockets or dies this pool supplies. */
    final Map<Integer, Long> shares = new HashMap<>();

    int depth;
    int id;

    Draft(String name, PoolKind kind, @Nullable Draft parent) {
      this.name = name;
      this.kind = kind;
      this.parent = parent;
      if (parent != null) {
        parent.children.add(this);
      }
    }

    /** The CPUs of a socket or die pool, which always has them. */
    CpuSet holderScope() {
      return Objects.requireNonNull(scope, () -> name + " has no CPU scope");
    }

    Pool toPool() {
      Supply s = supply();
      List<Integer> ancestors = new ArrayList<>();
      for (Draft a = parent; a != null; a = a.parent) {
        ancestors.add(a.id);
      }
      List<Integer> descendants = new ArrayList<>();
      collect(this, descendants);
      descendants.remove(Integer.valueOf(id));
      return new Pool(
          id,
          name,
          kind,
          depth,
          parent == null ? -1 : parent.id,
          children.stream().map(c -> c.id).toList(),
          ancestors,
          descendants,
          s.isolated,
          s.reserved,
          s.sharable,
          s.memory,
          s.memsets);
    }

    private void collect(Draft d, List<Integer> into) {
      d.children.forEach(c -> collect(c, into));
      into.add(d.id);
    }

    private Supply leafSupply() {
      Supply s = new Supply();
      for (int id : assigned.getOrDefault(this, List.of())) {
        NumaNode node = topology.node(id);
        CpuSet cpus = node.cpus().intersection(allowed);
        if (scope != null) {
          cpus = cpus.intersection(scope);
        }
        s.add(
            cpus.intersection(isolated),
            cpus.intersection(reserved),
            cpus.difference(isolated).difference(reserved),
            node.memoryType(),
            shares.getOrDefault(id, node.memoryBytes()),
            id,
            // the kernel refuses cpuset.mems naming a node without memory (unless none has any:
            // no NUMA support and no meminfo)
            node.memoryBytes() > 0 || !anyMemory);
      }
      return s;
    }

    private Supply supply() {
      if (children.isEmpty()) {
        return leafSupply();
      }
      Supply s = new Supply();
      for (Draft c : children) {
        Supply cs = c.supply();
        s.isolated = s.isolated.union(cs.isolated);
        s.reserved = s.reserved.union(cs.reserved);
        s.sharable = s.sharable.union(cs.sharable);
        s.memory = s.memory.plus(cs.memory);
        cs.memsets.forEach((t, set) -> s.memsets.merge(t, set, CpuSet::union));
      }
      return s;
    }
  }

  /** Capacity being summed up. */
  private static final class Supply {
    CpuSet isolated = CpuSet.EMPTY;
    CpuSet reserved = CpuSet.EMPTY;
    CpuSet sharable = CpuSet.EMPTY;
    Memory memory = Memory.NONE;
    final Map<MemoryType, CpuSet> memsets = new java.util.EnumMap<>(MemoryType.class);

    void add(
        CpuSet iso,
        CpuSet res,
        CpuSet shr,
        MemoryType type,
        long bytes,
        int node,
        boolean memoryNode) {
      isolated = isolated.union(iso);
      reserved = reserved.union(res);
      sharable = sharable.union(shr);
      memory = memory.plus(type, bytes);
      if (memoryNode) {
        memsets.merge(type, CpuSet.of(node), CpuSet::union);
      }
    }
  }
}
