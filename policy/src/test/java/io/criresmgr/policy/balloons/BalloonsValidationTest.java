package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.error;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BalloonsValidationTest {
  private static final String P = "policy.balloons.BalloonTypes[1]";

  /** The error of a config whose second type is {@code type}. */
  private static String typeError(String type) throws Exception {
    return error("BalloonTypes: [{Name: ok}, " + type + "]");
  }

  @Test
  void unknownKeysAreRejectedWithPathAndAcceptedKeys() throws Exception {
    assertEquals(
        "policy.balloons.BalloonTypes[2].PreferNewBalloon: unknown key, expected one of Name,"
            + " Namespaces, MatchExpressions, MinCPUs, MaxCPUs, MinBalloons, MaxBalloons,"
            + " AllocatorPriority, CPUClass, PreferSpreadingPods, PreferPerNamespaceBalloon,"
            + " PreferNewBalloons, ShareIdleCPUsInSame, PreferSpreadOnPhysicalCores,"
            + " AllocatorTopologyBalancing, PinMemory, MemoryTypes, HideHyperthreads,"
            + " PreferIsolCpus, PreferCoreType, GroupBy, PreferCloseToDevices, Loads (balloon type \"typo\")",
        error("BalloonTypes: [{Name: a}, {Name: b}, {Name: typo, PreferNewBalloon: true}]"));
    assertEquals(
        "policy.balloons.PinCPUs: unknown key, expected one of PinCPU, PinMemory, IdleCPUClass,"
            + " ReservedPoolNamespaces, AllocatorTopologyBalancing, PreferSpreadOnPhysicalCores,"
            + " BalloonTypes, LoadClasses",
        error("PinCPUs: true"));
    assertEquals(
        P
            + ".MatchExpressions[0].Op: unknown key, expected one of Key, Operator, Values"
            + " (balloon type \"x\")",
        typeError("{Name: x, MatchExpressions: [{Key: name, Op: In}]}"));
  }

  @Test
  void nriOnlyKeysSayWhatToDo() throws Exception {
    assertEquals(
        "policy.balloons.reservedResources: nri-plugins option, not supported; set"
            + " policy.ReservedResources instead, expected one of PinCPU, PinMemory, IdleCPUClass,"
            + " ReservedPoolNamespaces, AllocatorTopologyBalancing, PreferSpreadOnPhysicalCores,"
            + " BalloonTypes, LoadClasses",
        error("reservedResources: {cpu: 750m}"));
    assertEquals(
        P
            + ".components: nri-plugins option, not supported (yet), expected one of Name,"
            + " Namespaces, MatchExpressions, MinCPUs, MaxCPUs, MinBalloons, MaxBalloons,"
            + " AllocatorPriority, CPUClass, PreferSpreadingPods, PreferPerNamespaceBalloon,"
            + " PreferNewBalloons, ShareIdleCPUsInSame, PreferSpreadOnPhysicalCores,"
            + " AllocatorTopologyBalancing, PinMemory, MemoryTypes, HideHyperthreads,"
            + " PreferIsolCpus, PreferCoreType, GroupBy, PreferCloseToDevices, Loads (balloon type \"x\")",
        typeError("{name: x, components: [{balloonType: a}]}"));
  }

  @Test
  void groupByTemplatesMustBeWellFormed() throws Exception {
    assertEquals(
        P
            + ": balloon type \"x\": GroupBy: invalid template \"a-${pod/labels/app\": \"${\" at 2"
            + " is not closed by \"}\" (expected text with ${key} references such as"
            + " ${pod/labels/app})",
        typeError("{Name: x, GroupBy: \"a-${pod/labels/app\"}"));
    assertEquals(
        P
            + ": balloon type \"x\": GroupBy: invalid template \"${ }\": empty key at 0"
            + " (expected text with ${key} references such as ${pod/labels/app})",
        typeError("{Name: x, groupBy: \"${ }\"}"));
  }

  @Test
  void emptyAndDuplicateNames() throws Exception {
    assertEquals(P + ": balloon type \"\": Name must not be empty", typeError("{MinCPUs: 1}"));
    assertEquals(
        P + ": balloon type \"ok\": Name is already used by BalloonTypes[0]",
        typeError("{Name: ok}"));
  }

  @Test
  void minimumsAboveMaximums() throws Exception {
    assertEquals(
        P + ": balloon type \"x\": MinCPUs (4) is greater than MaxCPUs (2)",
        typeError("{Name: x, MinCPUs: 4, MaxCPUs: 2}"));
    assertEquals(
        P + ": balloon type \"x\": MinBalloons (3) is greater than MaxBalloons (1)",
        typeError("{Name: x, MinBalloons: 3, MaxBalloons: 1}"));
  }

  @Test
  void negativeNumbers() throws Exception {
    for (String field : new String[] {"MinCPUs", "MaxCPUs", "MinBalloons", "MaxBalloons"}) {
      assertEquals(
          P + ": balloon type \"x\": " + field + " must not be negative, got -1",
          typeError("{Name: x, " + field + ": -1}"));
    }
  }

  @Test
  void badValues() throws Exception {
    assertEquals(
        P + ".MemoryTypes: invalid value \"nvme\": expected DRAM, PMEM or HBM (balloon type \"x\")",
        typeError("{Name: x, MemoryTypes: [DRAM, nvme]}"));
    assertEquals(
        P
            + ".ShareIdleCPUsInSame: invalid value \"l3cache\": expected system, package, die, numa,"
            + " l2cache, core or thread (balloon type \"x\")",
        typeError("{Name: x, ShareIdleCPUsInSame: l3cache}"));
    assertEquals(
        P
            + ".AllocatorPriority: invalid value 4: expected high, normal, low or none (or 0, 1, 2"
            + " or 3) (balloon type \"x\")",
        typeError("{Name: x, AllocatorPriority: 4}"));
    assertEquals(
        P
            + ".PreferCoreType: invalid value \"fast\": expected performance or efficient (balloon"
            + " type \"x\")",
        typeError("{Name: x, PreferCoreType: fast}"));
    assertEquals(
        P + ".MinCPUs: invalid value 1.5: expected a whole number (balloon type \"x\")",
        typeError("{Name: x, MinCPUs: 1.5}"));
    assertEquals(
        P
            + ".MatchExpressions[0]: invalid operator \"Is\": expected one of Equals, NotEqual, In,"
            + " NotIn, Exists, NotExist, AlwaysTrue, Matches, MatchesNot, MatchesAny, MatchesNone"
            + " (balloon type \"x\")",
        typeError("{Name: x, MatchExpressions: [{Key: name, Operator: Is}]}"));
    assertEquals(
        P + ".MatchExpressions[0]: Equals takes exactly one value, got 2 (balloon type \"x\")",
        typeError("{Name: x, MatchExpressions: [{Key: name, Operator: Equals, Values: [a, b]}]}"));
    assertEquals(
        P
            + ": balloon type \"x\": Namespaces: invalid pattern \"[a\": character class at 0 is empty,"
            + " unterminated or has a bad range (syntax: *, ?, [a-z], [^a-z], \\c)",
        typeError("{Name: x, Namespaces: [\"[a\"]}"));
  }

  @Test
  void reservedTypeSizesAreCheckedLikeAnyType() throws Exception {
    assertEquals(
        P + ": balloon type \"reserved\": MinCPUs (3) is greater than MaxCPUs (2)",
        typeError("{Name: reserved, MinCPUs: 3, MaxCPUs: 2}"));
    assertEquals(
        P
            + ": balloon type \"reserved\": MinBalloons and MaxBalloons can only be 0 or 1, there is"
            + " exactly one reserved balloon (got MinBalloons 2, MaxBalloons 0)",
        typeError("{Name: reserved, MinBalloons: 2}"));
  }

  @Test
  void defaultTypeIsASingleBalloon() throws Exception {
    assertEquals(
        P
            + ": balloon type \"default\": MinBalloons and MaxBalloons can only be 0 or 1, there is"
            + " exactly one default balloon (got MinBalloons 0, MaxBalloons 3)",
        typeError("{Name: default, MaxBalloons: 3}"));
    assertEquals(
        P
            + ": balloon type \"default\": MinBalloons and MaxBalloons can only be 0 or 1, there is"
            + " exactly one default balloon (got MinBalloons 2, MaxBalloons 0)",
        typeError("{Name: default, MinBalloons: 2}"));
  }

  @Test
  void policyLevelErrors() throws Exception {
    assertEquals(
        "policy.balloons.ReservedPoolNamespaces: invalid pattern \"[x\": character class at 0 is empty,"
            + " unterminated or has a bad range (syntax: *, ?, [a-z], [^a-z], \\c)",
        error("ReservedPoolNamespaces: [\"[x\"]"));
    assertEquals(
        "policy.balloons.BalloonTypes: invalid value {\"Name\":\"x\"}: expected a list of balloon"
            + " types",
        error("BalloonTypes: {Name: x}"));
    assertEquals(
        "policy.balloons.PinCPU: invalid value \"maybe\": expected true or false",
        error("PinCPU: maybe"));
  }
}
