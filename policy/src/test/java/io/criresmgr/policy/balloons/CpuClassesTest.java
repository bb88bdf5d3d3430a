package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CpuClassesTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  /** cri-resmgr's balloons e2e test n4c16/test03-reserved, balloons-reserved.cfg. */
  private static final String RESERVED_CFG =
      """
      IdleCPUClass: idle-class
      ReservedPoolNamespaces: ["monitor-*", "*-log*"]
      BalloonTypes:
        - Name: reserved
          Namespaces: [my-exact-name]
          CPUClass: reserved-class
        - Name: default
          MinCPUs: 1
        - Name: full-core
          MinCPUs: 2
          MaxCPUs: 2
          CPUClass: turbo
          MinBalloons: 2
      """;

  @Test
  void balloonsGetTheirTypesClassAndFreeCpusTheIdleClass() throws Exception {
    PolicyHarness h = new PolicyHarness(N4C16, RESERVED_CFG, CpuSet.parse("0-2"));
    Decisions decided = h.allocate("pa", "c0", 2500, Map.of());
    BalloonSet set = h.set();
    CpuSet turbo = h.balloon("full-core[0]").cpus().union(h.balloon("full-core[1]").cpus());
    CpuSet dflt = h.balloon("default[0]").cpus();
    assertEquals(3, dflt.size());
    Map<String, CpuSet> expected = new TreeMap<>();
    expected.put("idle-class", CpuSet.parse("3-15").difference(turbo).difference(dflt));
    expected.put("reserved-class", CpuSet.parse("0-2"));
    expected.put("turbo", turbo);
    assertEquals(expected, CpuClasses.of(set, h.options.idleCpuClass()));
    assertEquals(
        Optional.of(expected),
        decided.cpuClasses(),
        "every decision carries the classes to the cpu controller");
  }

  @Test
  void reservedCpusKeepTheReservedClassWhenDefaultSharesThem() {
    Map<String, BalloonType> types =
        Map.of(
            "reserved", BalloonType.named("reserved"),
            "default", withClass("default", "dflt"),
            "fast", withClass("fast", "turbo"),
            "plain", BalloonType.named("plain"));
    List<Balloon> balloons =
        List.of(
            Balloon.empty("reserved", 0, CpuSet.of(0), true),
            Balloon.empty("default", 0, CpuSet.of(0), true),
            Balloon.empty("fast", 0, CpuSet.of(1, 2), false),
            Balloon.empty("fast", 1, CpuSet.of(5), false),
            Balloon.empty("plain", 0, CpuSet.of(3), false),
            Balloon.empty("gone", 0, CpuSet.of(4), false));
    assertEquals(
        Map.of("turbo", CpuSet.of(1, 2, 5)),
        CpuClasses.of(balloons, types, CpuSet.parse("0-7"), ""));
    assertEquals(
        Map.of("turbo", CpuSet.of(1, 2, 5), "idle", CpuSet.of(6, 7)),
        CpuClasses.of(balloons, types, CpuSet.parse("0-7"), "idle"));
  }

  private static BalloonType withClass(String name, String cpuClass) {
    return BalloonType.builder(name).cpuClass(cpuClass).build();
  }
}
