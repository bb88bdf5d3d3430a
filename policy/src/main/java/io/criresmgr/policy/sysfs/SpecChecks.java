package io.criresmgr.policy.sysfs;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.TopologySpec.Group;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The checks of {@link TopologySpec} and its groups. Messages are {@code key: value: why}, with
 * {@code group <index>: } in front for checks of the whole spec.
 */
final class SpecChecks {
  private SpecChecks() {}

  /** Checks a group's numbers. */
  static void counts(
      long mem, int cores, int threads, int nodes, int dies, int packages, int cpusPresent) {
    atLeast("mem", mem, 0);
    atLeast("cores", cores, 0);
    atLeast("threads", threads, 1);
    atLeast("nodes", nodes, 1);
    atLeast("dies", dies, 1);
    atLeast("packages", packages, 1);
    atLeast("cpus-present", cpusPresent, 0);
  }

  /** Checks that {@code l3-cores}, if set, divides the cores of a group with cores. */
  static void l3Cores(int cores, int l3Cores) {
    if (l3Cores == 0) {
      return;
    }
    String value = Integer.toString(l3Cores);
    if (cores == 0) {
      throw invalid("l3-cores", value, "a group without cores has no caches");
    }
    if (l3Cores < 0 || cores % l3Cores != 0) {
      throw invalid(
          "l3-cores", value, "expected a divisor of cores (" + cores + "): the cores per L3 cache");
    }
  }

  /**
   * Checks that {@code l2-cores}, if set, divides the cores of a group with cores and its {@code
   * l3-cores}, so that no L2 cache spans two L3 caches.
   */
  static void l2Cores(int cores, int l3Cores, int l2Cores) {
    if (l2Cores == 0) {
      return;
    }
    String value = Integer.toString(l2Cores);
    if (cores == 0) {
      throw invalid("l2-cores", value, "a group without cores has no caches");
    }
    if (l2Cores < 0 || cores % l2Cores != 0) {
      throw invalid(
          "l2-cores", value, "expected a divisor of cores (" + cores + "): the cores per L2 cache");
    }
    if (l3Cores > 0 && l3Cores % l2Cores != 0) {
      throw invalid(
          "l2-cores",
          value,
          "expected a divisor of l3-cores (" + l3Cores + "): an L2 cache within one L3 cache");
    }
  }

  /** Checks that memory-only and CPU keys are not mixed. */
  static void kinds(
      boolean memoryOnly,
      long mem,
      @Nullable MemoryType memType,
      CoreType coreType,
      CpuFrequency cpufreq) {
    if (memoryOnly && mem == 0) {
      throw invalid("mem", "0", "a group without cores needs memory");
    }
    if (!memoryOnly && memType != null) {
      throw invalid("mem-type", memType.label(), "only memory-only groups (no cores) have one");
    }
    if (memoryOnly && coreType != CoreType.UNKNOWN) {
      throw invalid("core-type", coreType.name(), "a group without cores has no CPUs");
    }
    if (memoryOnly && !cpufreq.equals(CpuFrequency.UNKNOWN)) {
      throw invalid("cpufreq", cpufreq.toString(), "a group without cores has no CPUs");
    }
  }

  /** Checks {@code node-dist}'s node ids and distances. */
  static void nodeDist(Map<Integer, Integer> nodeDist) {
    nodeDist.keySet().forEach(node -> atLeast("node-dist", node, 0));
    nodeDist.forEach((node, d) -> distance("node-dist", d, node));
  }

  /** Checks that {@code value} is a distance to another node (11-254). */
  static void distance(String key, int value) {
    if (value < 11 || value > 254) {
      throw invalid(
          key, Integer.toString(value), "expected a distance 11-254 (10 is the node itself)");
    }
  }

  private static void distance(String key, int value, int node) {
    if (value < 11 || value > 254) {
      throw invalid(
          key,
          "{\"" + node + "\":" + value + "}",
          "expected distances 11-254 (10 is the node itself)");
    }
  }

  /** Checks the groups together and {@code isolated} against them. */
  static void check(List<Group> groups, CpuSet isolated) {
    if (groups.stream().allMatch(Group::memoryOnly)) {
      throw new IllegalArgumentException("no CPUs: at least one group needs cores");
    }
    long nodes = 0;
    long cpus = 0;
    for (Group g : groups) {
      nodes += (long) g.packages() * g.dies() * g.nodes();
      cpus +=
          (long) g.packages() * g.dies() * g.nodes() * g.cores() * g.threads() + g.cpusPresent();
    }
    if (nodes > TopologySpec.MAX_NODES || cpus > TopologySpec.MAX_CPUS) {
      throw new IllegalArgumentException(
          nodes
              + " nodes and "
              + cpus
              + " CPUs: at most "
              + TopologySpec.MAX_NODES
              + " nodes and "
              + TopologySpec.MAX_CPUS
              + " CPUs");
    }
    long averageDram = averageDram(groups);
    for (int i = 0; i < groups.size(); i++) {
      checkInContext(i, groups.get(i), nodes, averageDram);
    }
    if (!CpuSet.range(0, (int) cpus - 1).containsAll(isolated)) {
      throw invalid("isolcpus", isolated.toString(), "present CPUs are 0-" + (cpus - 1));
    }
  }

  private static void checkInContext(int index, Group g, long nodes, long averageDram) {
    for (Map.Entry<Integer, Integer> e : g.nodeDist().entrySet()) {
      if (e.getKey() >= nodes) {
        throw inGroup(
            index,
            invalid(
                "node-dist",
                "{\"" + e.getKey() + "\":" + e.getValue() + "}",
                "there are nodes 0-" + (nodes - 1)));
      }
    }
    if (g.memType() == MemoryType.HBM && g.memBytes() >= averageDram) {
      throw inGroup(
          index,
          invalid(
              "mem",
              MemorySize.format(g.memBytes()),
              "an hbm node must be smaller than the average node with CPUs ("
                  + MemorySize.format(averageDram)
                  + "): sysfs tells HBM from PMEM by size only"));
    }
  }

  /** Checks that a spec with {@code "numa":"off"} has no memory-only groups nor distances. */
  static void numaOff(List<Group> groups) {
    for (int i = 0; i < groups.size(); i++) {
      Group g = groups.get(i);
      if (g.memoryOnly()) {
        throw inGroup(
            i, invalid("cores", "0", "with \"numa\":\"off\" there are no memory-only nodes"));
      }
      if (!g.nodeDist().isEmpty()) {
        throw inGroup(
            i,
            invalid(
                "node-dist", g.nodeDist().toString(), "with \"numa\":\"off\" there is one node"));
      }
    }
  }

  private static long averageDram(List<Group> groups) {
    long bytes = 0;
    long count = 0;
    for (Group g : groups) {
      if (!g.memoryOnly() && g.memBytes() > 0) {
        bytes += g.memBytes() * g.nodeCount();
        count += g.nodeCount();
      }
    }
    return count == 0 ? 0 : bytes / count;
  }

  private static void atLeast(String key, long value, long min) {
    if (value < min) {
      throw invalid(key, Long.toString(value), "expected an integer >= " + min);
    }
  }

  private static IllegalArgumentException inGroup(int index, IllegalArgumentException e) {
    return new IllegalArgumentException("group " + index + ": " + e.getMessage(), e);
  }

  /** {@code key: value: why}. */
  static IllegalArgumentException invalid(String key, String value, String why) {
    return new IllegalArgumentException(key + ": " + value + ": " + why);
  }
}
