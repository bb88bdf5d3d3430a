package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Balloons created by the policy honour PreferIsolCpus and PreferCoreType. */
class BalloonsPreferencesTest {
  private static String initial(SystemTopology topology, String yaml) throws Exception {
    BalloonsPolicy p =
        new BalloonsPolicy("balloons", topology, parse(yaml), topology.onlineCpus(), CpuSet.of(0));
    return p.initialBalloons().stream()
        .map(b -> b.name() + "=" + b.cpus())
        .collect(Collectors.joining(" "));
  }

  @Test
  void minBalloonsAreCreatedOnPreferredCpus() throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: iso
            PreferIsolCpus: true
            MinBalloons: 2
            MinCPUs: 2
          - Name: plain
            MinBalloons: 1
            MinCPUs: 2
        """;
    assertEquals(
        "reserved[0]=0 default[0]=0 iso[0]=6-7 iso[1]=14-15 plain[0]=2-3",
        initial(Preferring.ISOLATED, yaml));
  }

  @Test
  void coreTypesOnAHybridMachine() throws Exception {
    String yaml =
        """
        BalloonTypes:
          - Name: fast
            PreferCoreType: performance
            MinBalloons: 1
            MinCPUs: 2
          - Name: eco
            PreferCoreType: efficient
            MinBalloons: 1
            MinCPUs: 2
        """;
    assertEquals(
        "reserved[0]=0 default[0]=0 fast[0]=2-3 eco[0]=4-5", initial(Preferring.HYBRID, yaml));
  }
}
