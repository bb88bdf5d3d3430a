package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BalloonsOptionsTest {
  private static final ObjectMapper YAML = new YAMLMapper();

  static BalloonsOptions parse(String yaml) throws Exception {
    return BalloonsOptions.parse(YAML.readTree(yaml));
  }

  static String error(String yaml) throws Exception {
    JsonNode node = YAML.readTree(yaml);
    return assertThrows(PolicyException.class, () -> BalloonsOptions.parse(node)).getMessage();
  }

  private static final String CRI_RESMGR =
      """
      PinCPU: false
      PinMemory: false
      IdleCPUClass: idle
      ReservedPoolNamespaces: [monitoring, "infra-*"]
      AllocatorTopologyBalancing: true
      PreferSpreadOnPhysicalCores: true
      BalloonTypes:
        - Name: full
          Namespaces: ["team-*"]
          MatchExpressions:
            - {Key: pod/labels/app, Operator: In, Values: [db, cache]}
          MinCPUs: 2
          MaxCPUs: 8
          MinBalloons: 1
          MaxBalloons: 4
          AllocatorPriority: 1
          CPUClass: turbo
          PreferSpreadingPods: true
          PreferPerNamespaceBalloon: true
          PreferNewBalloons: true
          ShareIdleCPUsInSame: numa
          PreferSpreadOnPhysicalCores: false
          AllocatorTopologyBalancing: false
          PinMemory: true
          MemoryTypes: [DRAM, PMEM]
          HideHyperthreads: true
          PreferIsolCpus: true
          PreferCoreType: performance
        - Name: small
          CpuClass: normal
      """;

  private static final String NRI =
      """
      pinCPU: false
      pinMemory: false
      idleCPUClass: idle
      reservedPoolNamespaces: [monitoring, "infra-*"]
      allocatorTopologyBalancing: true
      preferSpreadOnPhysicalCores: true
      balloonTypes:
        - name: full
          namespaces: ["team-*"]
          matchExpressions:
            - {key: pod/labels/app, operator: In, values: [db, cache]}
          minCPUs: 2
          maxCPUs: 8
          minBalloons: 1
          maxBalloons: 4
          allocatorPriority: normal
          cpuClass: turbo
          preferSpreadingPods: true
          preferPerNamespaceBalloon: true
          preferNewBalloons: true
          shareIdleCPUsInSame: NUMA
          preferSpreadOnPhysicalCores: false
          allocatorTopologyBalancing: false
          pinMemory: true
          memoryTypes: [dram, pmem]
          hideHyperthreads: true
          preferIsolCpus: true
          preferCoreType: performance
        - name: small
          cpuClass: normal
      """;

  @Test
  void criResmgrAndNriSpellingsGiveEqualOptions() throws Exception {
    BalloonsOptions cri = parse(CRI_RESMGR);
    assertEquals(cri, parse(NRI));
    assertFalse(cri.pinCpu());
    assertFalse(cri.pinMemory());
    assertEquals("idle", cri.idleCpuClass());
    assertEquals(List.of("monitoring", "infra-*"), cri.reservedPoolNamespaces());
    assertTrue(cri.allocatorTopologyBalancing());
    assertTrue(cri.preferSpreadOnPhysicalCores());
    BalloonType full = cri.balloonTypes().get(0);
    assertEquals(
        BalloonType.builder("full")
            .namespaces(List.of("team-*"))
            .matchExpressions(
                List.of(
                    new Expression(
                        "pod/labels/app", Expression.Operator.IN, List.of("db", "cache"))))
            .minCpus(2)
            .maxCpus(8)
            .minBalloons(1)
            .maxBalloons(4)
            .allocatorPriority(CpuPriority.NORMAL)
            .cpuClass("turbo")
            .preferSpreadingPods(true)
            .preferPerNamespaceBalloon(true)
            .preferNewBalloons(true)
            .shareIdleCpusInSame(ShareLevel.NUMA)
            .preferSpreadOnPhysicalCores(false)
            .allocatorTopologyBalancing(false)
            .pinMemory(true)
            .memoryTypes(Set.of(MemoryType.DRAM, MemoryType.PMEM))
            .hideHyperthreads(true)
            .preferIsolCpus(true)
            .preferCoreType(CoreType.PERFORMANCE)
            .build(),
        full);
    assertEquals("normal", cri.balloonTypes().get(1).cpuClass());
  }

  @Test
  void absentOrEmptySectionGivesTheDefaults() throws Exception {
    assertEquals(BalloonsOptions.DEFAULTS, BalloonsOptions.parse(MissingNode.getInstance()));
    assertEquals(BalloonsOptions.DEFAULTS, parse("{}"));
    BalloonsOptions d = BalloonsOptions.DEFAULTS;
    assertTrue(d.pinCpu());
    assertTrue(d.pinMemory());
    assertEquals("", d.idleCpuClass());
    assertEquals(List.of("kube-system"), d.reservedPoolNamespaces());
    assertFalse(d.allocatorTopologyBalancing());
    assertFalse(d.preferSpreadOnPhysicalCores());
  }

  @Test
  void typeDefaultsAreCriResmgrs() throws Exception {
    BalloonType t = parse("BalloonTypes: [{Name: t}]").balloonTypes().get(0);
    assertEquals(BalloonType.named("t"), t);
    assertEquals(CpuPriority.HIGH, t.allocatorPriority());
    assertEquals(0, t.maxCpus());
    assertNull(t.shareIdleCpusInSame());
    assertNull(t.preferCoreType());
    assertEquals(Set.of(), t.memoryTypes());
  }

  @Test
  void keysMatchCaseInsensitively() throws Exception {
    BalloonsOptions o =
        parse("pincpu: false\nBALLOONTYPES: [{NAME: t, cpuclass: c, mincpus: 1, MAXcpus: 2}]");
    assertFalse(o.pinCpu());
    BalloonType t = o.balloonTypes().get(0);
    assertEquals(
        List.of("t", "c", 1, 2), List.of(t.name(), t.cpuClass(), t.minCpus(), t.maxCpus()));
  }

  @Test
  void prioritiesAcceptNumbersAndNames() throws Exception {
    String[] given = {"0", "1", "2", "3", "high", "Normal", "LOW", "none", "\"2\""};
    CpuPriority[] want = {
      CpuPriority.HIGH,
      CpuPriority.NORMAL,
      CpuPriority.LOW,
      CpuPriority.NONE,
      CpuPriority.HIGH,
      CpuPriority.NORMAL,
      CpuPriority.LOW,
      CpuPriority.NONE,
      CpuPriority.LOW
    };
    for (int i = 0; i < given.length; i++) {
      BalloonsOptions o = parse("BalloonTypes: [{Name: t, AllocatorPriority: " + given[i] + "}]");
      assertEquals(want[i], o.balloonTypes().get(0).allocatorPriority(), given[i]);
    }
  }

  @Test
  void overridesInheritFromThePolicyLevel() throws Exception {
    BalloonsOptions o =
        parse(
            """
            PinMemory: false
            AllocatorTopologyBalancing: true
            BalloonTypes:
              - {Name: inherit}
              - {Name: own, PinMemory: true, AllocatorTopologyBalancing: false,
                 PreferSpreadOnPhysicalCores: true}
            """);
    BalloonType inherit = o.balloonTypes().get(0);
    BalloonType own = o.balloonTypes().get(1);
    assertFalse(o.pinMemory(inherit));
    assertTrue(o.allocatorTopologyBalancing(inherit));
    assertFalse(o.preferSpreadOnPhysicalCores(inherit));
    assertTrue(o.pinMemory(own));
    assertFalse(o.allocatorTopologyBalancing(own));
    assertTrue(o.preferSpreadOnPhysicalCores(own));
  }
}
