package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code sys/devices/system/node}: each {@code node<N>}'s {@code cpulist}, {@code distance}
 * and {@code meminfo}, and {@code has_normal_memory}; checks that no CPU is in two nodes and that
 * distances are complete and symmetric. Memory types are decided later, by {@link SysfsReader}.
 */
final class NodeReader {
  /** Below the sysfs root. */
  static final String DIR = "devices/system/node";

  private static final Pattern MEM_TOTAL =
      Pattern.compile("(?m)^Node\\s+\\d+\\s+MemTotal:\\s+(\\d+)\\s*kB\\s*$");
  private static final Pattern PROC_MEM_TOTAL =
      Pattern.compile("(?m)^MemTotal:\\s+(\\d+)\\s*kB\\s*$");

  private NodeReader() {}

  /**
   * A node as read, before typing.
   *
   * @param cpus its online CPUs
   */
  record RawNode(
      int id, CpuSet cpus, long memoryBytes, Map<Integer, Integer> distances, boolean normal) {
    RawNode {
      Objects.requireNonNull(cpus, "cpus");
      distances = Map.copyOf(distances);
    }
  }

  /**
   * The nodes below {@code sys}; without a node directory (a kernel without NUMA) node 0 with every
   * online CPU and the memory of {@code <hostRoot>/proc/meminfo}, 0 if it is missing.
   */
  static SortedMap<Integer, RawNode> read(Path hostRoot, Path sys, CpuSet online) {
    Path dir = sys.resolve(DIR);
    SortedMap<Integer, RawNode> nodes = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      long memory = procMemTotal(hostRoot.resolve("proc/meminfo"));
      nodes.put(0, new RawNode(0, online, memory, Map.of(0, 10), true));
      return nodes;
    }
    List<Integer> ids = SysFiles.numberedEntries(dir, "node");
    CpuSet normal = SysFiles.readOptionalList(dir.resolve("has_normal_memory"));
    boolean normalKnown = Files.exists(dir.resolve("has_normal_memory"));
    Map<Integer, Integer> owner = new HashMap<>();
    for (int id : ids) {
      Path node = dir.resolve("node" + id);
      CpuSet cpus = SysFiles.readList(node.resolve("cpulist")).intersection(online);
      claim(owner, cpus, id, node.resolve("cpulist"));
      long memory = memTotal(node.resolve("meminfo"));
      Map<Integer, Integer> distances = distances(node.resolve("distance"), ids);
      boolean isNormal = normalKnown ? normal.contains(id) : memory > 0;
      nodes.put(id, new RawNode(id, cpus, memory, distances, isNormal));
    }
    checkSymmetric(dir, nodes);
    return nodes;
  }

  private static void claim(Map<Integer, Integer> owner, CpuSet cpus, int id, Path file) {
    cpus.stream()
        .forEach(
            cpu -> {
              Integer other = owner.putIfAbsent(cpu, id);
              if (other != null) {
                throw SysFiles.malformed(
                    file, "lists cpu" + cpu + ", which node" + other + "'s cpulist lists too");
              }
            });
  }

  private static long memTotal(Path file) {
    Matcher m = MEM_TOTAL.matcher(SysFiles.read(file));
    if (!m.find()) {
      throw SysFiles.malformed(file, "no line \"Node <N> MemTotal: <size> kB\"");
    }
    return kilobytes(file, m.group(1));
  }

  private static long procMemTotal(Path file) {
    String text = SysFiles.readOptional(file);
    Matcher m = PROC_MEM_TOTAL.matcher(text == null ? "" : text);
    return m.find() ? kilobytes(file, m.group(1)) : 0;
  }

  private static long kilobytes(Path file, String digits) {
    try {
      return Math.multiplyExact(Long.parseLong(digits), 1024L);
    } catch (ArithmeticException | NumberFormatException e) {
      throw SysFiles.malformed(file, "memory size " + digits + " kB is out of range");
    }
  }

  private static Map<Integer, Integer> distances(Path file, List<Integer> ids) {
    String text = SysFiles.read(file);
    String[] row = text.isEmpty() ? new String[0] : text.split("\\s+");
    if (row.length != ids.size()) {
      throw SysFiles.malformed(
          file,
          row.length + " distances for " + ids.size() + " nodes " + ids + ": \"" + text + "\"");
    }
    Map<Integer, Integer> distances = new HashMap<>();
    for (int i = 0; i < row.length; i++) {
      distances.put(ids.get(i), SysFiles.parseInt(file, row[i]));
    }
    return distances;
  }

  /** {@code a}'s distance to {@code b}: {@link #distances} lists every node for each. */
  private static int distance(RawNode a, RawNode b) {
    return Objects.requireNonNull(
        a.distances().get(b.id()), () -> "node" + a.id() + ": no distance to node" + b.id());
  }

  private static void checkSymmetric(Path dir, SortedMap<Integer, RawNode> nodes) {
    for (RawNode a : nodes.values()) {
      for (RawNode b : nodes.tailMap(a.id() + 1).values()) {
        int ab = distance(a, b);
        int ba = distance(b, a);
        if (ab != ba) {
          throw new PolicyException(
              dir.resolve("node" + a.id()).resolve("distance")
                  + ": distance to node"
                  + b.id()
                  + " is "
                  + ab
                  + ", but node"
                  + b.id()
                  + "/distance says "
                  + ba
                  + " back; distances must be symmetric");
        }
      }
    }
  }
}
