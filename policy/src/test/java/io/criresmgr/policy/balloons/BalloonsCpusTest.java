package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuConstraints;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The balloons policy resolves its CPUs with the shared {@link CpuConstraints}. */
class BalloonsCpusTest {
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();

  private static CpuConstraints resolve(
      Map<String, String> available, Map<String, String> reserved) {
    PolicyContext context =
        new PolicyContext(
            Path.of("/nonexistent"), N4C16.onlineCpus(), CpuSet.range(0, 3), available, reserved);
    return CpuConstraints.resolve("balloons", context, N4C16, new CpuAllocator(N4C16));
  }

  @Test
  void listsAndQuantities() {
    assertEquals(
        new CpuConstraints(CpuSet.range(0, 15), CpuSet.of(0)),
        resolve(Map.of(), Map.of("CPU", "750m")));
    assertEquals(
        new CpuConstraints(CpuSet.range(4, 11), CpuSet.of(4, 5)),
        resolve(Map.of("cpu", "cpuset:4-11"), Map.of("CPU", "4,5")));
  }

  @Test
  void errorsNameTheOptionAndTheValue() {
    assertEquals(
        "policy.ReservedResources.CPU: missing; the balloons policy needs CPUs reserved for"
            + " kube-system, e.g. ReservedResources: {CPU: 750m} or {CPU: cpuset:0}",
        assertThrows(PolicyException.class, () -> resolve(Map.of(), Map.of())).getMessage());
    assertEquals(
        "policy.ReservedResources.CPU: invalid value \"cpuset:14-15\": CPUs 14-15 are not among"
            + " the available CPUs 0-7 (policy.AvailableResources.CPU); reserve available CPUs",
        assertThrows(
                PolicyException.class,
                () -> resolve(Map.of("CPU", "0-7"), Map.of("CPU", "cpuset:14-15")))
            .getMessage());
    assertEquals(
        "policy.AvailableResources.CPU: invalid value \"4\": a quantity is not accepted here,"
            + " expected cpuset:<list>, a CPU list such as 0-3 or 0,2, or a cgroup (cgroup:<dir> or"
            + " /<dir>)",
        assertThrows(PolicyException.class, () -> resolve(Map.of("CPU", "4"), Map.of("CPU", "1")))
            .getMessage());
  }
}
