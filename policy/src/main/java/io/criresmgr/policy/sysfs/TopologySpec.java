package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The compact topology spec of the reference e2e suites (docs/topology.md), e.g. {@code
 * [{"mem":"2G","cores":2,"nodes":2,"packages":2}]}: a list of groups, each with {@code mem}, {@code
 * cores} per node, {@code threads} per core (default 2), {@code nodes} per die, {@code dies} per
 * package, {@code packages}, {@code node-dist}, {@code cpus-present}; a group without cores
 * describes memory-only nodes. NUMA nodes and CPUs are numbered across groups exactly as the
 * reference's {@code topology2qemuopts.py} numbers them.
 *
 * <p>Our additions: per group {@code mem-type}, {@code core-type} and {@code cpufreq}; for the
 * whole spec the kernel-isolated CPUs ({@code isolcpus}), written in the object form {@code
 * {"groups":[...],"isolcpus":"8-9"}} since the list form has no place for them, and {@code
 * "numa":"off"}: NUMA disabled in firmware, every CPU and all memory in node 0.
 *
 * @param groups the groups in order; NUMA nodes and CPUs are numbered across them
 * @param isolated the kernel-isolated CPUs ({@code isolcpus=}), a subset of the present CPUs
 * @param defaults the distances between nodes that {@code node-dist} does not set
 * @param numa false for {@code "numa":"off"}: the nodes of every group merge into one node 0 with
 *     all CPUs (of every package) and the memory of them all
 */
public record TopologySpec(
    List<Group> groups, CpuSet isolated, DefaultDistances defaults, boolean numa) {
  /** At most this many CPUs, the largest {@code NR_CPUS} of common kernels. */
  public static final int MAX_CPUS = 8192;

  /** At most this many NUMA nodes, the kernel's largest {@code MAX_NUMNODES}. */
  public static final int MAX_NODES = 1024;

  /**
   * Copies the list and checks the spec as a whole.
   *
   * @throws IllegalArgumentException naming the group and key at fault
   */
  public TopologySpec {
    groups = List.copyOf(groups);
    Objects.requireNonNull(isolated, "isolated");
    Objects.requireNonNull(defaults, "defaults");
    SpecChecks.check(groups, isolated);
    if (!numa) {
      SpecChecks.numaOff(groups);
    }
  }

  /** A spec with NUMA on. */
  public TopologySpec(List<Group> groups, CpuSet isolated, DefaultDistances defaults) {
    this(groups, isolated, defaults, true);
  }

  /** A spec without isolated CPUs and with the reference's default distances. */
  public TopologySpec(List<Group> groups) {
    this(groups, CpuSet.EMPTY, DefaultDistances.REFERENCE);
  }

  /**
   * Parses the JSON (or YAML flow) text of a spec: a list of groups, or an object with {@code
   * groups}, {@code isolcpus} and default distances.
   *
   * @throws io.criresmgr.policy.PolicyException naming the group, the key and the bad value
   */
  public static TopologySpec parse(String text) {
    return SpecParser.parse(text, "topology spec");
  }

  /**
   * A checked-in spec: {@code laptop}, {@code n4c16}, {@code n4c32}, {@code c4pmem4}, {@code
   * n4c128}, {@code n8c448}, {@code tiered}, {@code s8c4096}, {@code numaoff} or {@code epyc} (see
   * {@link #builtInNames()}).
   *
   * @throws io.criresmgr.policy.PolicyException for an unknown name, listing the known ones
   */
  public static TopologySpec builtIn(String name) {
    return BuiltInSpecs.load(name);
  }

  /** The names of the checked-in specs. */
  public static List<String> builtInNames() {
    return BuiltInSpecs.NAMES;
  }

  /**
   * A spec from a command-line value: JSON or YAML flow text if it starts with <code>[</code> or
   * <code>{</code>, else a built-in name, else the path of a file holding a spec.
   *
   * @throws io.criresmgr.policy.PolicyException if it is none of them, or naming what is wrong
   */
  public static TopologySpec resolve(String nameOrPathOrJson) {
    return BuiltInSpecs.resolve(nameOrPathOrJson);
  }

  /** This spec with {@code cpus} kernel-isolated. */
  public TopologySpec withIsolated(CpuSet cpus) {
    return new TopologySpec(groups, cpus, defaults, numa);
  }

  /**
   * The topology {@link SysfsReader} reads from the tree {@link FakeSysfsWriter} writes for this
   * spec, computed without files.
   */
  public SystemTopology topology() {
    return new SpecLayout(this).topology();
  }

  /**
   * The distances between different nodes that {@code node-dist} does not set; the reference's
   * {@code dist-same-die}, {@code dist-same-package} and {@code dist-other-package}.
   *
   * @param sameDie between nodes of one die (11)
   * @param samePackage between nodes of different dies of one package (21)
   * @param otherPackage between nodes of different packages (21)
   */
  public record DefaultDistances(int sameDie, int samePackage, int otherPackage) {
    /** The reference's defaults: 11, 21, 21. */
    public static final DefaultDistances REFERENCE = new DefaultDistances(11, 21, 21);

    /** Checks each is a remote distance (11-254). */
    public DefaultDistances {
      SpecChecks.distance("dist-same-die", sameDie);
      SpecChecks.distance("dist-same-package", samePackage);
      SpecChecks.distance("dist-other-package", otherPackage);
    }
  }

  /**
   * One group of identical NUMA nodes: {@code packages} × {@code dies} × {@code nodes} nodes, each
   * with {@code cores} × {@code threads} CPUs and {@code memBytes} of memory.
   *
   * @param memBytes {@code mem}: memory per node
   * @param cores {@code cores} per node; 0 for memory-only nodes
   * @param threads {@code threads} per core (1 in memory-only groups)
   * @param nodes {@code nodes} per die
   * @param dies {@code dies} per package
   * @param packages {@code packages}
   * @param nodeDist {@code node-dist}: distances from each node of the group to the given nodes
   * @param cpusPresent {@code cpus-present}: present but offline CPUs, numbered after the online
   *     ones of every group
   * @param memType {@code mem-type} of memory-only nodes: {@link MemoryType#DRAM} (CXL), PMEM, HBM,
   *     or null for the reader's size rule
   * @param coreType {@code core-type}: the hybrid core class of the group's CPUs
   * @param cpufreq {@code cpufreq}: the group's CPU frequencies
   * @param l3Cores {@code l3-cores}: the cores sharing one L3 cache, dividing {@code cores} (an AMD
   *     CCX: several L3 caches per node); 0 (the default) for one L3 cache per die
   * @param l2Cores {@code l2-cores}: the cores sharing one L2 cache, dividing {@code cores} and
   *     {@code l3Cores} (an Intel E-core module: 4 cores per L2); 0 (the default) for one L2 cache
   *     per core
   */
  public record Group(
      long memBytes,
      int cores,
      int threads,
      int nodes,
      int dies,
      int packages,
      Map<Integer, Integer> nodeDist,
      int cpusPresent,
      @Nullable MemoryType memType,
      CoreType coreType,
      CpuFrequency cpufreq,
      int l3Cores,
      int l2Cores) {
    /**
     * Checks ranges and that memory-only and CPU keys are not mixed.
     *
     * @throws IllegalArgumentException naming the key and the value
     */
    public Group {
      nodeDist = Map.copyOf(nodeDist);
      Objects.requireNonNull(coreType, "coreType");
      Objects.requireNonNull(cpufreq, "cpufreq");
      SpecChecks.counts(memBytes, cores, threads, nodes, dies, packages, cpusPresent);
      SpecChecks.kinds(cores == 0, memBytes, memType, coreType, cpufreq);
      SpecChecks.nodeDist(nodeDist);
      SpecChecks.l3Cores(cores, l3Cores);
      SpecChecks.l2Cores(cores, l3Cores, l2Cores);
    }

    /** A group of nodes with CPUs and DRAM; no hints, no offline CPUs, no distances. */
    public static Group cpus(
        long memBytes, int cores, int threads, int nodes, int dies, int packages) {
      return new Group(
          memBytes,
          cores,
          threads,
          nodes,
          dies,
          packages,
          Map.of(),
          0,
          null,
          CoreType.UNKNOWN,
          CpuFrequency.UNKNOWN,
          0,
          0);
    }

    /** One memory-only node of {@code memType} (null: by size) with {@code nodeDist}. */
    public static Group memoryOnly(
        long memBytes, @Nullable MemoryType memType, Map<Integer, Integer> nodeDist) {
      return new Group(
          memBytes,
          0,
          1,
          1,
          1,
          1,
          nodeDist,
          0,
          memType,
          CoreType.UNKNOWN,
          CpuFrequency.UNKNOWN,
          0,
          0);
    }

    /** Whether the nodes have no CPUs. */
    public boolean memoryOnly() {
      return cores == 0;
    }

    /** The number of NUMA nodes of the group. */
    public int nodeCount() {
      return packages * dies * nodes;
    }

    /** The number of online CPUs of each node. */
    public int cpusPerNode() {
      return cores * threads;
    }
  }
}
