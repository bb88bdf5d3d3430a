package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.criresmgr.cache.CpuSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every option that can move a container changes the {@link PlacementKey}; CPU classes do not. */
class PlacementKeyTest {
  private static final CpuSet ALLOWED = CpuSet.range(0, 15);
  private static final CpuSet RESERVED = CpuSet.of(0);

  /** One setting of every balloon-type option but {@code Name} and {@code CPUClass}. */
  private static final List<String> TYPE_OPTIONS =
      List.of(
          "Namespaces: [x]",
          "MatchExpressions: [{key: name, operator: Equals, values: [a]}]",
          "MinCPUs: 1",
          "MaxCPUs: 2",
          "MinBalloons: 1",
          "MaxBalloons: 2",
          "AllocatorPriority: low",
          "PreferSpreadingPods: true",
          "PreferPerNamespaceBalloon: true",
          "PreferNewBalloons: true",
          "ShareIdleCPUsInSame: numa",
          "PreferSpreadOnPhysicalCores: true",
          "AllocatorTopologyBalancing: true",
          "PinMemory: false",
          "MemoryTypes: [DRAM]",
          "HideHyperthreads: true",
          "PreferIsolCpus: true",
          "PreferCoreType: performance",
          "GroupBy: \"${pod/labels/app}\"",
          "PreferCloseToDevices: [/dev/vfio/7]",
          "Loads: [l]");

  private static String key(String yaml) throws Exception {
    return key(yaml, "core");
  }

  private static String key(String yaml, String loadLevel) throws Exception {
    String loads = "LoadClasses: [{Name: l, Level: " + loadLevel + "}]\n";
    return PlacementKey.of(parse(loads + yaml), ALLOWED, RESERVED);
  }

  @Test
  void theLevelOfAUsedLoadClassIsInTheKey() throws Exception {
    assertEquals(key(type(""), "core"), key(type(""), "l2cache"));
    assertNotEquals(key(type("Loads: [l]"), "core"), key(type("Loads: [l]"), "l2cache"));
  }

  private static String type(String option) {
    return "BalloonTypes:\n  - {Name: t" + (option.isEmpty() ? "" : ", " + option) + "}\n";
  }

  @Test
  void everyTypeOptionButTheCpuClassIsInTheKey() throws Exception {
    String base = key(type(""));
    for (String option : TYPE_OPTIONS) {
      assertNotEquals(base, key(type(option)), option);
    }
    assertEquals(base, key(type("CPUClass: turbo")));
    // a new option must be added to the key (or to this test, if it cannot move a container)
    assertEquals(TYPE_OPTIONS.size() + 2, BalloonType.class.getRecordComponents().length);
  }

  @Test
  void everyPolicyOptionButTheIdleCpuClassIsInTheKey() throws Exception {
    String base = key(type(""));
    for (String option :
        List.of(
            "PinCPU: false",
            "PinMemory: false",
            "ReservedPoolNamespaces: [x]",
            "AllocatorTopologyBalancing: true",
            "PreferSpreadOnPhysicalCores: true")) {
      assertNotEquals(base, key(option + "\n" + type("")), option);
    }
    assertEquals(base, key("IdleCPUClass: idle\n" + type("")));
    assertEquals(BalloonsOptions.KEYS.size(), BalloonsOptions.class.getRecordComponents().length);
    assertNotEquals(base, PlacementKey.of(parse(type("")), ALLOWED, CpuSet.of(1)));
    assertNotEquals(base, PlacementKey.of(parse(type("")), CpuSet.range(0, 14), RESERVED));
  }

  @Test
  void matchExpressionValuesWithCommasAreNotConfused() throws Exception {
    assertNotEquals(
        key(type("MatchExpressions: [{key: name, operator: In, values: [\"a,b\"]}]")),
        key(type("MatchExpressions: [{key: name, operator: In, values: [a, b]}]")));
  }
}
