package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the online CPUs' directories {@code sys/devices/system/cpu/cpu<N>}: topology ids, thread
 * siblings, NUMA node, cpufreq facts and hybrid core type.
 */
final class CpuReader {
  private static final Set<String> EPPS =
      Set.of("performance", "balance_performance", "balance_power", "power");

  private final Path sys;
  private final Path dir;
  private final Map<Integer, Integer> cpuNodes = new HashMap<>();
  private final Map<Integer, NodeReader.RawNode> nodes;
  private final CpuSet performance;
  private final CpuSet efficient;
  private final boolean numa;

  private CpuReader(Path sys, Map<Integer, NodeReader.RawNode> nodes) {
    this.sys = sys;
    this.dir = sys.resolve(SysfsReader.CPU_DIR);
    this.nodes = nodes;
    nodes.values().forEach(n -> n.cpus().stream().forEach(cpu -> cpuNodes.put(cpu, n.id())));
    this.performance = SysFiles.readOptionalList(sys.resolve("devices/cpu_core/cpus"));
    this.efficient = SysFiles.readOptionalList(sys.resolve("devices/cpu_atom/cpus"));
    // Without a node directory (no NUMA in the kernel) every CPU is in node 0, links or not.
    this.numa = Files.isDirectory(sys.resolve(NodeReader.DIR));
  }

  /**
   * The online CPUs by id, checked against {@code online} (the {@code cpu/online} list) and the
   * nodes' CPU lists.
   */
  static SortedMap<Integer, Cpu> read(
      Path sys, CpuSet online, Map<Integer, NodeReader.RawNode> nodes) {
    CpuReader reader = new CpuReader(sys, nodes);
    reader.checkOnline(online);
    SortedMap<Integer, Cpu> cpus = new TreeMap<>();
    online.stream().forEach(id -> cpus.put(id, reader.cpu(id)));
    return cpus;
  }

  /** Checks that the {@code cpu<N>/online} files agree with {@code cpu/online}. */
  private void checkOnline(CpuSet online) {
    Path list = dir.resolve("online");
    List<Integer> ids = SysFiles.numberedEntries(dir, "cpu");
    for (int id : ids) {
      if (isOnline(id) != online.contains(id)) {
        String says =
            online.contains(id)
                ? "lists cpu%d, but %s says 0"
                : "lacks cpu%d, but %s is 1 or missing";
        throw SysFiles.malformed(list, String.format(says, id, cpuDir(id).resolve("online")));
      }
    }
    CpuSet missing = online.difference(CpuSet.of(ids));
    if (!missing.isEmpty()) {
      throw SysFiles.malformed(list, "lists CPUs without a cpu<N> directory: " + missing);
    }
  }

  private boolean isOnline(int id) {
    Path file = cpuDir(id).resolve("online");
    String text = SysFiles.readOptional(file);
    // cpu0 of many x86 machines cannot go offline and has no online file.
    if (text == null || text.equals("1")) {
      return true;
    }
    if (text.equals("0")) {
      return false;
    }
    throw SysFiles.malformed(file, "expected 0 or 1, got \"" + text + "\"");
  }

  private Path cpuDir(int id) {
    return dir.resolve("cpu" + id);
  }

  private Cpu cpu(int id) {
    Path topology = cpuDir(id).resolve("topology");
    Path siblingsFile = topology.resolve("thread_siblings_list");
    CpuSet siblings = SysFiles.readList(siblingsFile);
    if (!siblings.contains(id)) {
      throw SysFiles.malformed(siblingsFile, "\"" + siblings + "\" lacks cpu" + id + " itself");
    }
    return new Cpu(
        id,
        unknownAsZero(SysFiles.readInt(topology.resolve("physical_package_id"))),
        dieId(topology.resolve("die_id")),
        node(id),
        SysFiles.readInt(topology.resolve("core_id")),
        siblings,
        frequency(cpuDir(id).resolve("cpufreq")),
        coreType(id));
  }

  private static int dieId(Path file) {
    String text = SysFiles.readOptional(file);
    return text == null ? 0 : unknownAsZero(SysFiles.parseInt(file, text));
  }

  /** Some architectures report -1 for ids they do not know; there is then one package or die. */
  private static int unknownAsZero(int id) {
    return Math.max(0, id);
  }

  private int node(int id) {
    if (!numa) {
      return 0;
    }
    Path cpu = cpuDir(id);
    List<Integer> linked = SysFiles.numberedEntries(cpu, "node");
    if (linked.size() > 1) {
      throw SysFiles.malformed(cpu, "has entries for several nodes " + linked + ", expected one");
    }
    Integer listed = cpuNodes.get(id);
    if (linked.isEmpty()) {
      if (listed == null) {
        throw SysFiles.malformed(
            cpu,
            "no node<N> entry, and no node's cpulist lists cpu" + id + "; which node is it in?");
      }
      return listed;
    }
    int node = linked.get(0);
    if (!nodes.containsKey(node)) {
      throw SysFiles.malformed(cpu, "entry node" + node + " names a node that does not exist");
    }
    if (listed == null || listed != node) {
      Path cpulist = sys.resolve(NodeReader.DIR).resolve("node" + node).resolve("cpulist");
      throw SysFiles.malformed(cpulist, "lacks cpu" + id + ", which has a node" + node + " entry");
    }
    return node;
  }

  private static CpuFrequency frequency(Path cpufreq) {
    if (!Files.isDirectory(cpufreq)) {
      return CpuFrequency.UNKNOWN;
    }
    String epp = SysFiles.readOptional(cpufreq.resolve("energy_performance_preference"));
    return new CpuFrequency(
        SysFiles.readOptionalLong(cpufreq.resolve("cpuinfo_min_freq")),
        SysFiles.readOptionalLong(cpufreq.resolve("cpuinfo_max_freq")),
        SysFiles.readOptionalLong(cpufreq.resolve("base_frequency")),
        epp != null && EPPS.contains(epp) ? epp : "");
  }

  private CoreType coreType(int id) {
    if (performance.contains(id)) {
      return CoreType.PERFORMANCE;
    }
    return efficient.contains(id) ? CoreType.EFFICIENT : CoreType.UNKNOWN;
  }
}
