package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import org.junit.jupiter.api.Test;

/**
 * The reserved balloon growing beyond the reserved CPUs with the reserved type's MinCPUs/MaxCPUs.
 */
class ReservedGrowthTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  private final BalloonsNode fixture = new BalloonsNode();

  private static BalloonsPolicy policy(String yaml, String reserved) throws Exception {
    return new BalloonsPolicy(
        BalloonsNode.NAME, N4C16, parse(yaml), N4C16.onlineCpus(), CpuSet.parse(reserved));
  }

  private CpuSet reservedCpus() {
    return fixture.balloons().get(0).cpus();
  }

  @Test
  void growsWithKubeSystemLoadUpToMaxCpusNextToTheReservedCpus() throws Exception {
    BalloonsPolicy p = policy("BalloonTypes: [{Name: reserved, MaxCPUs: 3}]", "0");
    fixture.allocate(p, "kube-system", "k0", "c0", 1500);
    assertEquals(CpuSet.parse("0-1"), reservedCpus());
    assertEquals(CpuSet.parse("0-1"), fixture.cpus("k0", "c0"));
    fixture.allocate(p, "kube-system", "k1", "c0", 1000);
    assertEquals(CpuSet.parse("0-2"), reservedCpus());
    // Beyond MaxCPUs the reserved balloon is overbooked, never refused.
    fixture.allocate(p, "kube-system", "k2", "c0", 2000);
    assertEquals(CpuSet.parse("0-2"), reservedCpus());
    assertEquals(CpuSet.parse("0-2"), fixture.cpus("k0", "c0"));
    // The default balloon keeps sharing only the reserved CPUs.
    fixture.allocate(p, "default", "d0", "c0", 100);
    assertEquals(CpuSet.parse("0"), fixture.cpus("d0", "c0"));
  }

  @Test
  void shrinksBackButKeepsTheReservedCpus() throws Exception {
    BalloonsPolicy p = policy("BalloonTypes: [{Name: reserved, MaxCPUs: 4}]", "1");
    fixture.allocate(p, "kube-system", "k0", "c0", 3000);
    assertEquals(3, reservedCpus().size());
    fixture.releaseRemoved(p, "k0", "c0");
    assertEquals(CpuSet.parse("1"), reservedCpus());
  }

  @Test
  void minCpusGivesMoreCpusFromTheStart() throws Exception {
    BalloonsPolicy p = policy("BalloonTypes: [{Name: reserved, MinCPUs: 2, MaxCPUs: 2}]", "0");
    fixture.allocate(p, "kube-system", "k0", "c0", 100);
    assertEquals(CpuSet.parse("0-1"), reservedCpus());
    assertEquals(CpuSet.parse("0-1"), p.initialBalloons().get(0).cpus());
  }

  @Test
  void withoutMinOrMaxCpusTheReservedBalloonKeepsTheReservedCpus() throws Exception {
    BalloonsPolicy p = policy("BalloonTypes: [{Name: reserved, Namespaces: [infra]}]", "0");
    fixture.allocate(p, "infra", "k0", "c0", 3000);
    assertEquals(CpuSet.parse("0"), reservedCpus());
  }

  @Test
  void growsOnlyOntoFreeCpus() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: reserved, MaxCPUs: 16}
              - {Name: big, Namespaces: [big], MinBalloons: 1, MinCPUs: 14}
            """,
            "0");
    fixture.allocate(p, "kube-system", "k0", "c0", 8000);
    assertEquals(2, reservedCpus().size());
  }

  @Test
  void maxCpusBelowTheReservedCpusIsAnError() {
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> policy("BalloonTypes: [{Name: reserved, MaxCPUs: 1}]", "0-1"));
    assertEquals(
        "policy.balloons.BalloonTypes: balloon type \"reserved\": MaxCPUs (1) is less than the 2"
            + " CPUs of policy.ReservedResources.CPU (0-1); set it to 0 or at least 2",
        e.getMessage());
  }
}
