package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.balloons.CpuTreeNode.Level;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * cputree_test.go's bookkeeping: numbered CPU sets ("ccids", balloons) resized one after another
 * with one {@link CpuTreeAllocator}, and checks of where their CPUs are.
 */
final class Balloons {
  final SystemTopology topology;
  final CpuTreeAllocator allocator;
  final Map<Integer, CpuSet> sets = new TreeMap<>();
  CpuSet free;

  Balloons(SystemTopology topology, boolean balancing, boolean spread) {
    this.topology = topology;
    this.allocator =
        new CpuTreeAllocator(
            CpuTree.of(topology),
            new CpuAllocator(topology),
            new CpuTreeOptions(balancing, spread, CpuPriority.NONE));
    this.free = topology.onlineCpus();
  }

  static Balloons int5(int p, int d, int n, int c, int t, boolean balancing, boolean spread) {
    return new Balloons(new Int5Topology(p, d, n, c, t).build(), balancing, spread);
  }

  /** Gives balloon {@code id} the CPUs {@code cpus} (taken from the free ones). */
  void preset(int id, CpuSet cpus) {
    sets.put(id, cpus);
    free = free.difference(cpus);
  }

  /** Resizes balloon {@code id} by {@code delta}; checks and returns the CPUs added or removed. */
  CpuSet resize(int id, int delta) {
    CpuSet current = get(id);
    CpuSet changed = allocator.resize(current, free, delta);
    assertEquals(Math.abs(delta), changed.size(), "resize " + current + " by " + delta);
    if (delta > 0) {
      assertTrue(free.containsAll(changed), changed + " not free");
      sets.put(id, current.union(changed));
      free = free.difference(changed);
    } else {
      assertTrue(current.containsAll(changed), changed + " not in " + current);
      sets.put(id, current.difference(changed));
      free = free.union(changed);
    }
    return changed;
  }

  CpuSet get(int id) {
    return sets.getOrDefault(id, CpuSet.EMPTY);
  }

  CpuSet all() {
    return sets.values().stream().reduce(CpuSet.EMPTY, CpuSet::union);
  }

  /** The elements of {@code level} holding {@code cpus}. */
  Set<String> elements(Level level, CpuSet cpus) {
    return cpus.stream().mapToObj(id -> element(level, id)).collect(Collectors.toSet());
  }

  private String element(Level level, int id) {
    Cpu c = topology.cpu(id);
    return switch (level) {
      case SYSTEM -> "system";
      case PACKAGE -> "p" + c.packageId();
      case DIE -> "p" + c.packageId() + "d" + c.dieId();
      case NUMA -> "n" + c.nodeId();
      case L2CACHE -> "l2:" + l2(id);
      case CORE -> "p" + c.packageId() + "c" + c.coreId();
      case THREAD -> "t" + id;
    };
  }

  /** The lowest CPU sharing {@code id}'s L2 cache, else of its core. */
  private int l2(int id) {
    return topology.cacheGroups(2).stream()
        .filter(g -> g.contains(id))
        .findFirst()
        .orElse(topology.coreCpus(id))
        .stream()
        .min()
        .orElseThrow();
  }

  void assertSame(Level level, CpuSet cpus) {
    assertEquals(1, elements(level, cpus).size(), cpus + " should share one " + level);
  }

  /** Every CPU of {@code cpus} in a {@code level} element of its own. */
  void assertNotSame(Level level, CpuSet cpus) {
    assertEquals(cpus.size(), elements(level, cpus).size(), cpus + " should not share a " + level);
  }

  /** Balloons {@code ids} pairwise share no element of {@code level}. */
  void assertDisjoint(Level level, int... ids) {
    for (int a = 0; a < ids.length; a++) {
      for (int b = a + 1; b < ids.length; b++) {
        Set<String> common = elements(level, get(ids[a]));
        common.retainAll(elements(level, get(ids[b])));
        assertTrue(
            common.isEmpty(),
            "balloons "
                + ids[a]
                + " "
                + get(ids[a])
                + " and "
                + ids[b]
                + " "
                + get(ids[b])
                + " share "
                + common);
      }
    }
  }

  /** No CPU of balloon {@code id} in the tree element named {@code name}. */
  void assertNotOn(int id, String name, CpuTree tree) {
    Set<String> spanned = Set.copyOf(tree.names(levelOf(name), get(id)));
    assertTrue(!spanned.contains(name), get(id) + " should not be on " + name);
  }

  private static Level levelOf(String name) {
    if (name.contains("cpu")) {
      return Level.CORE;
    }
    if (name.contains("n")) {
      return Level.NUMA;
    }
    return name.contains("d") ? Level.DIE : Level.PACKAGE;
  }
}
