package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Balloons on {@code numaoff}: 2 sockets (cpu0-7, cpu8-15), NUMA disabled, one node 0. */
class NumaOffBalloonsTest {
  private static final SystemTopology NUMAOFF = TopologySpec.builtIn("numaoff").topology();

  private static final String TYPES =
      """
      BalloonTypes:
        - Name: default
          MinCPUs: 1
        - Name: full
          MinCPUs: 6
          MaxCPUs: 6
          MinBalloons: 2
      """;

  @Test
  void balloonsStayWithinOneSocketAndContainersGetNodeZero() throws Exception {
    PolicyHarness h = new PolicyHarness(NUMAOFF, TYPES, CpuSet.of(0));
    h.allocate("pa", "c0", 2000, Map.of());
    CpuSet full0 = h.balloon("full[0]").cpus();
    CpuSet full1 = h.balloon("full[1]").cpus();
    assertEquals(6, full0.size());
    assertEquals(6, full1.size());
    assertEquals(1, packages(full0), full0.toString());
    assertEquals(1, packages(full1), full1.toString());
    assertEquals(2, packages(full0.union(full1)));
    assertEquals(CpuSet.of(0), h.assignment("pa", "c0").mems());
  }

  private static long packages(CpuSet cpus) {
    return cpus.stream().map(c -> NUMAOFF.cpu(c).packageId()).distinct().count();
  }
}
