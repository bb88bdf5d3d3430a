package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovers the {@link SystemTopology} from sysfs below a host root (docs/topology.md).
 *
 * <p>Memory typing: nodes with CPUs are DRAM. A memory-only node is typed by the dax device that
 * onlined its memory, if any (CXL: far DRAM; NVDIMM: PMEM), else by cri-resmgr's size rule ({@link
 * MemoryTyping}). Memory-only nodes without memory are left out.
 */
public final class SysfsReader {
  /** The CPU directory, below the sysfs root. */
  static final String CPU_DIR = "devices/system/cpu";

  private static final Logger LOG = LoggerFactory.getLogger(SysfsReader.class);

  private SysfsReader() {}

  /**
   * Reads {@code <hostRoot>/sys/devices/system/{cpu,node}} (with the CPUs' caches), {@code
   * <hostRoot>/sys/devices/cpu_*} and {@code <hostRoot>/sys/bus/dax}.
   *
   * @throws io.criresmgr.policy.PolicyException naming the file that is missing, unreadable,
   *     malformed or inconsistent with the rest of the tree
   */
  public static SystemTopology read(Path hostRoot) {
    Path sys = hostRoot.resolve("sys");
    Path cpuDir = sys.resolve(CPU_DIR);
    CpuSet online = online(cpuDir.resolve("online"));
    CpuSet present = SysFiles.readOptionalList(cpuDir.resolve("present")).union(online);
    CpuSet isolated = SysFiles.readOptionalList(cpuDir.resolve("isolated"));
    SortedMap<Integer, NodeReader.RawNode> raw = NodeReader.read(hostRoot, sys, online);
    SortedMap<Integer, Cpu> cpus = CpuReader.read(sys, online, raw);
    List<CpuCache> caches = CacheReader.read(cpuDir, online);
    return new SystemTopology(cpus, typed(sys, raw), present, isolated, caches);
  }

  private static CpuSet online(Path file) {
    if (SysFiles.readOptional(file) == null) {
      throw new PolicyException(file + ": missing; is --host-root right?");
    }
    CpuSet online = SysFiles.readList(file);
    if (online.isEmpty()) {
      throw SysFiles.malformed(file, "empty, expected a list such as 0-3");
    }
    return online;
  }

  private static Map<Integer, NumaNode> typed(Path sys, Map<Integer, NodeReader.RawNode> raw) {
    Map<Integer, NumaNode> nodes = new TreeMap<>();
    for (NodeReader.RawNode n : raw.values()) {
      if (!n.cpus().isEmpty()) {
        nodes.put(n.id(), node(n, MemoryType.DRAM, false));
      }
    }
    long averageDram = MemoryTyping.averageDram(nodes.values());
    Map<Integer, MemoryType> dax = DaxDevices.types(sys);
    for (NodeReader.RawNode n : raw.values()) {
      if (!n.cpus().isEmpty()) {
        continue;
      }
      if (n.memoryBytes() == 0) {
        LOG.debug("node{} has neither CPUs nor memory, left out", n.id());
        continue;
      }
      MemoryType byDax = dax.get(n.id());
      MemoryType type = byDax != null ? byDax : MemoryTyping.bySize(n.memoryBytes(), averageDram);
      nodes.put(n.id(), node(n, type, type == MemoryType.DRAM));
    }
    return nodes;
  }

  private static NumaNode node(NodeReader.RawNode n, MemoryType type, boolean far) {
    return new NumaNode(n.id(), n.cpus(), n.memoryBytes(), type, far, n.distances(), n.normal());
  }
}
