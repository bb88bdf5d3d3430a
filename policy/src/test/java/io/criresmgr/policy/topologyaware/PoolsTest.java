package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Resources;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuConstraints;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports of cri-resmgr's {@code pools_test.go} (topology-aware): TestPoolCreation,
 * TestWorkloadPlacement, TestAffinities, TestContainerMove and TestMemoryLimitFiltering, on the
 * same trees, all with {@code ReservedResources.CPU: 750m}.
 */
class PoolsTest {
  private static final long GB = 1_000_000_000L;

  private static PoolTree tree(SystemTopology t) {
    CpuConstraints c =
        CpuConstraints.resolve(
            "topology-aware", Harness.context(t, Map.of(), "750m"), t, new CpuAllocator(t));
    return PoolTreeBuilder.build(t, c.allowed(), c.reserved());
  }

  private static ContainerRequest request(int full, long memory, Set<MemoryType> types) {
    Harness h = new Harness(Topologies.desktop(), Map.of(), "750m");
    h.create("default", "x", 1, Resources.NONE);
    return new ContainerRequest(
        h.byName("xc0"),
        h.node.cache().pod("sandbox-x").orElseThrow(),
        SimpleRequests.cpu(CpuKind.NORMAL, full, 0, false),
        new MemoryRequest(types, memory, Duration.ZERO, false));
  }

  private static List<PoolScore> sorted(Ledger ledger, ContainerRequest r, double[] affinity) {
    return PoolSelector.sorted(
        PoolSelector.candidates(ledger, r, affinity, TopologyAwareOptions.Level.PACKAGE), r.cpu());
  }

  private static List<Integer> ids(List<PoolScore> scores) {
    return scores.stream().map(s -> s.pool().id()).sorted().toList();
  }

  static Stream<Arguments> creation() {
    Set<MemoryType> dram = EnumSet.of(MemoryType.DRAM);
    Set<MemoryType> dramPmem = EnumSet.of(MemoryType.DRAM, MemoryType.PMEM);
    return Stream.of(
        Arguments.of("desktop", Topologies.desktop(), 1, 20, 20, dram, dram),
        Arguments.of("server", Topologies.server(), 7, 28, 112, dram, dramPmem),
        Arguments.of("server", Topologies.server(), 7, 28, 112, dramPmem, dramPmem),
        Arguments.of(
            "4-socket-server-nosnc", Topologies.fourSocketNoSnc(), 5, 36, 144, dram, dram));
  }

  @ParameterizedTest(name = "{0} {5}")
  @MethodSource("creation")
  void poolCreation(
      String name,
      SystemTopology t,
      int pools,
      int leafCpus,
      int rootCpus,
      Set<MemoryType> types,
      Set<MemoryType> firstPoolTypes) {
    PoolTree tree = tree(t);
    assertEquals(pools, tree.size());
    assertEquals(leafCpus, tree.pool(0).cpus().size());
    assertEquals(rootCpus, tree.root().cpus().size());
    Ledger ledger = new Ledger(tree);
    List<PoolScore> best = sorted(ledger, request(0, 10000, types), new double[tree.size()]);
    assertEquals(pools, best.size());
    Set<MemoryType> present = EnumSet.noneOf(MemoryType.class);
    for (MemoryType m : MemoryType.values()) {
      if (!best.get(0).pool().memsets().get(m).isEmpty()) {
        present.add(m);
      }
    }
    assertEquals(firstPoolTypes, present);
  }

  @Test
  void workloadPlacement() {
    PoolTree tree = tree(Topologies.server());
    Ledger ledger = new Ledger(tree);
    Set<MemoryType> all = EnumSet.allOf(MemoryType.class);
    double[] none = new double[tree.size()];
    // 28 CPUs minus 2 isolated leave 26 in a leaf, and a sharable set may not be exhausted
    List<PoolScore> s25 = sorted(ledger, request(25, 10000, all), none);
    assertEquals(7, s25.size());
    assertTrue(s25.get(0).pool().isLeaf());
    assertFalse(sorted(ledger, request(29, 10000, all), none).get(0).pool().isLeaf());
    List<PoolScore> big = sorted(ledger, request(28, 190 * GB, all), none);
    assertEquals(List.of(2, 6), ids(big));
    assertFalse(big.get(0).pool().isLeaf());
  }

  static Stream<Arguments> affinities() {
    return Stream.of(
        Arguments.of(Map.of(), "NUMA node #2"),
        Arguments.of(Map.of("NUMA node #1", 1), "NUMA node #1"),
        Arguments.of(Map.of("socket #1", 1), "socket #1"),
        Arguments.of(Map.of("socket #1", 1, "NUMA node #1", 1), "NUMA node #1"),
        Arguments.of(Map.of("NUMA node #1", 1, "NUMA node #3", 1), "socket #1"),
        Arguments.of(Map.of("NUMA node #1", 2, "NUMA node #3", 1), "socket #1"),
        Arguments.of(Map.of("NUMA node #1", 3, "NUMA node #3", 1), "NUMA node #1"),
        Arguments.of(Map.of("NUMA node #0", 2, "NUMA node #3", 2, "socket #1", 1), "root"),
        Arguments.of(Map.of("NUMA node #0", 1, "NUMA node #3", 1, "socket #1", 1), "root"),
        Arguments.of(Map.of("NUMA node #0", 1, "NUMA node #3", 1, "socket #1", 2), "socket #1"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("affinities")
  void affinities(Map<String, Integer> weights, String best) {
    PoolTree tree = tree(Topologies.server());
    long[] perPool = new long[tree.size()];
    weights.forEach((pool, w) -> perPool[tree.pool(pool).orElseThrow().id()] = w);
    double[] affinity = PoolAffinities.fromPoolWeights(tree, perPool);
    ContainerRequest r = request(3, 10000, EnumSet.allOf(MemoryType.class));
    assertEquals(best, sorted(new Ledger(tree), r, affinity).get(0).pool().name());
  }

  @Test
  void reservedRequestsScoreThePoolWithTheReservedCpuBest() {
    PoolTree tree = tree(Topologies.server());
    ContainerRequest r = request(0, 10000, EnumSet.allOf(MemoryType.class));
    r = r.withCpu(SimpleRequests.cpu(CpuKind.RESERVED, 0, 0, false));
    assertEquals("NUMA node #0", sorted(new Ledger(tree), r, new double[7]).get(0).pool().name());
  }

  @Test
  void containerMove() {
    Harness small = new Harness(Topologies.server(), Map.of(), "750m");
    small.create("default", "pod", 3, new Resources(2000, 2000, 1000, 1000));
    for (int i = 0; i < 3; i++) {
      assertTrue(memoryPool(small, "podc" + i).isLeaf());
    }
    Harness h = new Harness(Topologies.server(), Map.of(), "750m");
    h.create("default", "p1", 1, new Resources(2000, 2000, 1000, 1000));
    h.create("default", "p2", 1, new Resources(2000, 2000, 190 * GB, 190 * GB));
    h.create("default", "p3", 1, new Resources(2000, 2000, 140 * GB, 140 * GB));
    for (String c : new String[] {"p1c0", "p2c0", "p3c0"}) {
      assertFalse(memoryPool(h, c).isLeaf(), c);
    }
    Grant g1 = grant(h, "p1c0");
    assertNotEquals(g1.pool(), g1.memoryPool());
    assertEquals(h.policy.tree().pool(g1.memoryPool()).memset(), h.mems("p1c0"));
  }

  private static Grant grant(Harness h, String name) {
    return h.policy.open(h.node.cache()).ledger().grant(h.byName(name).cacheId()).orElseThrow();
  }

  private static Pool memoryPool(Harness h, String name) {
    return h.policy.tree().pool(grant(h, name).memoryPool());
  }

  @Test
  void memoryLimitFiltering() {
    MemoryRequest m10000 = memory(10000);
    PoolTree single = Trees.memoryOnly(10001);
    assertTrue(PoolSelector.fitsMemory(new Ledger(single), single.root(), m10000));
    assertFalse(PoolSelector.fitsMemory(new Ledger(single), single.root(), memory(10002)));
    PoolTree twoLevels = Trees.memoryOnly(10001, 10001);
    assertTrue(PoolSelector.fitsMemory(new Ledger(twoLevels), twoLevels.pool(0), m10000));
    assertTrue(PoolSelector.fitsMemory(new Ledger(twoLevels), twoLevels.root(), m10000));
    PoolTree split = Trees.memoryOnly(6000, 6000);
    Ledger ledger = new Ledger(split);
    assertFalse(PoolSelector.fitsMemory(ledger, split.pool(0), m10000));
    assertFalse(PoolSelector.fitsMemory(ledger, split.pool(1), m10000));
    assertTrue(PoolSelector.fitsMemory(ledger, split.root(), m10000));
  }

  private static MemoryRequest memory(long bytes) {
    return new MemoryRequest(EnumSet.allOf(MemoryType.class), bytes, Duration.ZERO, false);
  }
}
