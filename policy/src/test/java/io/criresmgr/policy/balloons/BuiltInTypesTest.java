package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltInTypesTest {
  private static List<String> names(List<BalloonType> types) {
    return types.stream().map(BalloonType::name).toList();
  }

  @Test
  void absentBuiltInsAreAddedReservedFirstDefaultLast() throws Exception {
    List<BalloonType> types =
        parse("ReservedPoolNamespaces: [monitoring]\nBalloonTypes: [{Name: a}, {Name: b}]")
            .effectiveTypes();
    assertEquals(List.of("reserved", "a", "b", "default"), names(types));
    assertEquals(
        BalloonType.named("reserved")
            .withBuiltIn(List.of("kube-system", "monitoring"), 1, 1, CpuPriority.LOW),
        types.get(0));
    assertEquals(
        BalloonType.named("default").withBuiltIn(List.of(), 1, 1, CpuPriority.LOW), types.get(3));
  }

  @Test
  void withoutAnyOptionsOnlyTheBuiltInsRemain() {
    List<BalloonType> types = BalloonsOptions.DEFAULTS.effectiveTypes();
    assertEquals(List.of("reserved", "default"), names(types));
    assertEquals(List.of("kube-system"), types.get(0).namespaces());
  }

  @Test
  void configuredBuiltInsKeepTheirOptionsAndMoveToTheirPlace() throws Exception {
    List<BalloonType> types =
        parse(
                """
                ReservedPoolNamespaces: ["infra-*", kube-system]
                BalloonTypes:
                  - {Name: default, MinCPUs: 2, MaxCPUs: 4, CPUClass: slow}
                  - {Name: a}
                  - {Name: reserved, Namespaces: [monitoring, "infra-*"], AllocatorPriority: 1}
                """)
            .effectiveTypes();
    assertEquals(List.of("reserved", "a", "default"), names(types));
    BalloonType reserved = types.get(0);
    assertEquals(List.of("monitoring", "infra-*", "kube-system"), reserved.namespaces());
    assertEquals(CpuPriority.NORMAL, reserved.allocatorPriority());
    assertEquals(List.of(1, 1), List.of(reserved.minBalloons(), reserved.maxBalloons()));
    BalloonType dflt = types.get(2);
    assertEquals(
        List.of(2, 4, 1, 1),
        List.of(dflt.minCpus(), dflt.maxCpus(), dflt.minBalloons(), dflt.maxBalloons()));
    assertEquals("slow", dflt.cpuClass());
    assertEquals(CpuPriority.HIGH, dflt.allocatorPriority());
  }
}
