package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reference e2e scenarios whose pods carry annotations (cri-resmgr's {@code
 * test/e2e/policies.test-suite/topology-aware}), through the production request derivation ({@link
 * Preferences}).
 */
class AnnotatedPlacementTest {
  private static final String CRI = ".cri-resource-manager.intel.com";
  private static final String PREFER_SHARED = "prefer-shared-cpus" + CRI + "/pod";
  private static final String PREFER_ISOLATED = "prefer-isolated-cpus" + CRI + "/pod";
  private static final String PREFER_RESERVED = "prefer-reserved-cpus" + CRI;
  private static final String MEMORY_TYPE = "memory-type" + CRI + "/container.";

  private static Harness n4c16() {
    return Harness.withPreferences(
        Topologies.n4c16(), Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
  }

  private static Resources guaranteed(long milli) {
    return new Resources(milli, milli, 100 * MB, 100 * MB);
  }

  private static int exclusiveOf(Harness h, String name, String... others) {
    CpuSet rest = CpuSet.EMPTY;
    for (String o : others) {
      rest = rest.union(h.cpus(o));
    }
    return h.cpus(name).difference(rest).size();
  }

  @Test
  void n4c16Test07MixedAllocations() {
    Harness h = n4c16();
    h.create("default", "pod0", 2, guaranteed(500));
    assertEquals(4, h.cpus("pod0c0").size());
    assertEquals(4, h.cpus("pod0c1").size());
    h.assertDisjoint("pod0c0", "pod0c1");
    h.create("default", "pod1", 2, guaranteed(1500));
    assertEquals(3, Math.min(h.cpus("pod0c0").size(), h.cpus("pod0c1").size()));
    assertEquals(4, Math.max(h.cpus("pod0c0").size(), h.cpus("pod0c1").size()));
    assertEquals(4, h.cpus("pod1c0").size());
    assertEquals(4, h.cpus("pod1c1").size());
    assertEquals(1, exclusiveOf(h, "pod1c1", "pod0c0", "pod0c1"));
    h.create("default", "pod2", 2, guaranteed(2400));
    assertEquals(3, h.cpus("pod2c0").size());
    assertEquals(3, exclusiveOf(h, "pod2c0", "pod0c0", "pod0c1", "pod1c0", "pod1c1", "pod2c1"));
    assertEquals(4, h.cpus("pod2c1").size());
    assertEquals(0, exclusiveOf(h, "pod2c1", "pod0c0", "pod0c1", "pod1c0", "pod1c1", "pod2c0"));
    assertTrue(List.of(h.mems("pod0c0"), h.mems("pod0c1")).contains(h.mems("pod2c1")));
    Map<String, String> exclusiveIsolated = Map.of(PREFER_SHARED, "false", PREFER_ISOLATED, "true");
    h.create("default", "pod3", 1, guaranteed(2400), exclusiveIsolated);
    assertEquals(h.mems("pod1c0"), h.mems("pod3c0"));
    String[] all = {"pod0c0", "pod0c1", "pod1c0", "pod1c1", "pod2c0", "pod2c1"};
    assertEquals(1, exclusiveOf(h, "pod1c0", without(all, "pod1c0", "pod3c0")));
    assertEquals(2, exclusiveOf(h, "pod3c0", all));
    h.delete("pod3");
    Map<String, String> exclusive = Map.of(PREFER_SHARED, "false", PREFER_ISOLATED, "false");
    h.create("default", "pod4", 1, guaranteed(2400), exclusive);
    assertEquals(h.mems("pod1c0"), h.mems("pod4c0"));
    assertEquals(2, exclusiveOf(h, "pod4c0", all));
    h.delete("pod1");
    assertEquals(4, h.cpus("pod0c0").size());
    assertEquals(4, h.cpus("pod0c1").size());
    h.create("default", "pod5", 2, guaranteed(1500), Map.of(PREFER_SHARED, "true"));
    assertTrue(List.of(h.mems("pod0c0"), h.mems("pod0c1")).contains(h.mems("pod5c0")));
    assertEquals(4, h.cpus("pod5c0").size());
    assertEquals(h.mems("pod4c0"), h.mems("pod5c1"));
    assertEquals(2, h.cpus("pod5c1").size());
    String[] now = {"pod0c0", "pod0c1", "pod2c0", "pod2c1", "pod4c0"};
    assertEquals(0, exclusiveOf(h, "pod5c0", now));
    assertEquals(0, exclusiveOf(h, "pod5c1", now));
  }

  private static String[] without(String[] names, String skip, String add) {
    List<String> out = new java.util.ArrayList<>();
    for (String n : names) {
      if (!n.equals(skip)) {
        out.add(n);
      }
    }
    out.add(add);
    return out.toArray(String[]::new);
  }

  @Test
  void n4c16Test10AdditionalReservedNamespaces() {
    TopologyAwareOptions options =
        TopologyAwareOptions.builder()
            .reservedPoolNamespaces(List.of("reserved-pool", "reserved-*", "foobar"))
            .build();
    Harness h =
        Harness.withPreferences(
            Topologies.n4c16(), Map.of("CPU", "cpuset:8-11"), "cpuset:10-11", options);
    h.create("kube-system", "pod0", 1, Resources.NONE);
    h.create("default", "pod1", 1, Resources.NONE);
    assertEquals(CpuSet.of(10, 11), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(8, 9), h.cpus("pod1c0"));
    h.create("foobar", "pod2", 1, Resources.NONE);
    h.create("foobar", "pod3", 1, Resources.NONE, Map.of(PREFER_RESERVED + "/pod", "false"));
    h.create("foobar", "pod4", 1, Resources.NONE, Map.of(PREFER_RESERVED + "/pod", "true"));
    assertEquals(CpuSet.of(10, 11), h.cpus("pod2c0"));
    assertEquals(CpuSet.of(8, 9), h.cpus("pod3c0"));
    assertEquals(CpuSet.of(10, 11), h.cpus("pod4c0"));
  }

  @Test
  void n4c16Test11ReservedCpuAnnotations() {
    Harness h =
        Harness.withPreferences(
            Topologies.n4c16(),
            Map.of("CPU", "cpuset:8-11"),
            "cpuset:10-11",
            TopologyAwareOptions.DEFAULTS);
    h.create("default", "pod0", 1, guaranteed(1000), Map.of(PREFER_RESERVED + "/pod", "true"));
    h.create(
        "default",
        "pod1",
        1,
        guaranteed(1000),
        Map.of(PREFER_RESERVED + "/container.special", "false"));
    assertEquals(CpuSet.of(10, 11), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(8), h.cpus("pod1c0"));
  }

  @Test
  void c4pmem4Test02MemoryTypeAnnotations() {
    Harness h =
        Harness.withPreferences(
            Topologies.c4pmem4(), Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    Resources r = new Resources(500, 500, 250 * MB, 250 * MB);
    h.create(
        "default",
        "pod0",
        3,
        r,
        Map.of(
            MEMORY_TYPE + "pod0c0", "dram",
            MEMORY_TYPE + "pod0c1", "pmem",
            MEMORY_TYPE + "pod0c2", "pmem,dram"));
    h.guaranteedNamed("pod0", "pod0c9", 500, 250 * MB);
    assertC4pmem4Test02(h);
  }

  @Test
  void c4pmem4Test02DeprecatedMemoryTypeAnnotation() {
    Harness h =
        Harness.withPreferences(
            Topologies.c4pmem4(), Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    Resources r = new Resources(500, 500, 250 * MB, 250 * MB);
    h.create(
        "default",
        "pod0",
        3,
        r,
        Map.of(
            "cri-resource-manager.intel.com/memory-type",
            "pod0c0: dram\npod0c1: pmem\npod0c2: pmem,dram\n"));
    h.guaranteedNamed("pod0", "pod0c9", 500, 250 * MB);
    assertC4pmem4Test02(h);
  }

  private static void assertC4pmem4Test02(Harness h) {
    assertEquals(CpuSet.of(1), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(1), h.mems("pod0c0"));
    assertEquals(CpuSet.of(2), h.cpus("pod0c1"));
    assertEquals(CpuSet.of(4), h.mems("pod0c1"));
    assertEquals(CpuSet.of(3), h.cpus("pod0c2"));
    assertEquals(CpuSet.of(3, 5), h.mems("pod0c2"));
    assertEquals(CpuSet.of(1, 2, 3), h.cpus("pod0c9"));
    assertEquals(CpuSet.range(0, 7), h.mems("pod0c9"));
  }

  @Test
  void c4pmem4Test03ColdStartAnnotation() {
    Harness h =
        Harness.withPreferences(
            Topologies.c4pmem4(), Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.create(
        "default",
        "pod0",
        1,
        new Resources(500, 500, 1L << 30, 1L << 30),
        Map.of(
            MEMORY_TYPE + "pod0c0", "dram,pmem",
            "cold-start" + CRI + "/container.pod0c0", "duration: 10s"));
    assertEquals(CpuSet.of(1), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(7), h.mems("pod0c0"));
    h.start("pod0c0");
    assertEquals(java.time.Duration.ofSeconds(10), h.last.timers().get(0).delay());
    h.apply(h.policy.handleEvent(h.last.timers().get(0).event(), h.node.cache()));
    assertEquals(CpuSet.of(1, 7), h.mems("pod0c0"));
  }
}
