package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.FakeSysfs;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.cpuallocator.CpuConstraints;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code policy.AvailableResources.CPU} and {@code policy.ReservedResources.CPU}. */
class CpuConstraintsTest {
  private static final SystemTopology N4C16 = Topologies.n4c16();

  @TempDir Path root;

  private CpuConstraints resolve(SystemTopology t, Map<String, String> available, String reserved) {
    PolicyContext context =
        new PolicyContext(
            root, t.onlineCpus(), CpuSet.range(0, 3), available, Map.of("CPU", reserved));
    return CpuConstraints.resolve("topology-aware", context, t, new CpuAllocator(t));
  }

  private String error(Map<String, String> available, String reserved) {
    return assertThrows(PolicyException.class, () -> resolve(N4C16, available, reserved))
        .getMessage();
  }

  @Test
  void defaultsToEveryOnlineCpuAndReservesByQuantity() {
    CpuConstraints c = resolve(N4C16, Map.of(), "750m");
    assertEquals(CpuSet.range(0, 15), c.allowed());
    assertEquals(CpuSet.of(0), c.reserved());
    assertEquals(CpuSet.of(4, 5, 6), resolve(N4C16, Map.of("cpu", "4-7,8-13"), "2250m").reserved());
    assertEquals(CpuSet.of(0, 1), resolve(N4C16, Map.of(), "2").reserved());
  }

  @Test
  void listsCanBeGivenWithOrWithoutPrefix() {
    assertEquals(
        CpuSet.range(4, 11), resolve(N4C16, Map.of("CPU", "cpuset:4-11"), "cpuset:4").allowed());
    assertEquals(CpuSet.of(1, 3), resolve(N4C16, Map.of("CPU", "1,3"), "cpuset:3").allowed());
  }

  @Test
  void cgroupsGiveTheCpusOfTheirCpusetFile() {
    FakeSysfs.at(root).write("sys/fs/cgroup/cpuset/t1/cpuset.cpus", "1-4,11\n");
    FakeSysfs.at(root).write("sys/fs/cgroup/cpuset/t2/cpuset.cpus", "5-8,11\n");
    FakeSysfs.at(root).write("sys/fs/cgroup/t3/cpuset.cpus", "");
    FakeSysfs.at(root).write("sys/fs/cgroup/t3/cpuset.cpus.effective", "2-3\n");
    assertEquals(
        CpuSet.parse("1-4,11"),
        resolve(N4C16, Map.of("CPU", "/sys/fs/cgroup/cpuset/t1"), "cpuset:11").allowed());
    assertEquals(CpuSet.parse("5-8,11"), resolve(N4C16, Map.of("CPU", "/t2"), "1").allowed());
    assertEquals(CpuSet.of(2, 3), resolve(N4C16, Map.of("CPU", "cgroup:t3"), "1").allowed());
    String e = error(Map.of("CPU", "/nope"), "1");
    assertEquals(
        true,
        e.startsWith(
            "policy.AvailableResources.CPU: invalid value \"/nope\": cgroup \"/nope\" has no"
                + " readable, non-empty cpuset.cpus; tried ["),
        e);
  }

  @Test
  void badValuesNameTheOptionTheValueAndWhatIsAllowed() {
    assertEquals(
        "policy.AvailableResources.CPU: invalid value \"2\": a quantity is not accepted here,"
            + " expected cpuset:<list>, a CPU list such as 0-3 or 0,2, or a cgroup (cgroup:<dir> or"
            + " /<dir>)",
        error(Map.of("CPU", "2"), "1"));
    assertEquals(
        "policy.ReservedResources.CPU: invalid value \"lots\": expected a CPU quantity such as 750m"
            + " or 2, or cpuset:<list>, a CPU list such as 0-3 or 0,2, or a cgroup (cgroup:<dir> or"
            + " /<dir>)",
        error(Map.of(), "lots"));
    assertEquals(
        "policy.AvailableResources.CPU: invalid value \"cpuset:20-23\": none of these CPUs is"
            + " online (0-15)",
        error(Map.of("CPU", "cpuset:20-23"), "1"));
    assertEquals(
        "policy.AvailableResources.CPU: given twice (keys are case-insensitive)",
        error(Map.of("CPU", "1-3", "cpu", "1-3"), "1"));
    assertEquals(
        "policy.ReservedResources.CPU: missing; the topology-aware policy needs CPUs reserved for"
            + " kube-system, e.g. ReservedResources: {CPU: 750m} or {CPU: cpuset:0}",
        assertThrows(
                PolicyException.class,
                () ->
                    CpuConstraints.resolve(
                        "topology-aware",
                        new PolicyContext(
                            root, N4C16.onlineCpus(), CpuSet.of(0), Map.of(), Map.of()),
                        N4C16,
                        new CpuAllocator(N4C16)))
            .getMessage());
  }

  @Test
  void isolatedCpusMayOnlyBeReservedAlone() {
    SystemTopology isolated = Topologies.n4c16(CpuSet.of(8, 9));
    assertEquals(CpuSet.of(8), resolve(isolated, Map.of(), "cpuset:8").reserved());
    PolicyException e =
        assertThrows(PolicyException.class, () -> resolve(isolated, Map.of(), "cpuset:8-9"));
    assertEquals(
        "policy.ReservedResources.CPU: invalid value \"cpuset:8-9\": CPUs 8-9 are kernel-isolated;"
            + " an isolated CPU may only be reserved alone",
        e.getMessage());
    assertEquals(CpuSet.of(0), resolve(isolated, Map.of("CPU", "8-9,0-1"), "1").reserved());
  }

  @Test
  void test04CgroupAvailableCpusArePlacedOn() {
    FakeSysfs.at(root).write("sys/fs/cgroup/cpuset/cri-resmgr-test-05-1/cpuset.cpus", "1-4,11\n");
    SimpleRequests requests = new SimpleRequests(TopologyAwareOptions.DEFAULTS);
    TopologyAwarePolicy policy =
        (TopologyAwarePolicy)
            Harness.provider(N4C16, TopologyAwareOptions.DEFAULTS, requests, Clock.systemUTC())
                .create(
                    new PolicyContext(
                        root,
                        N4C16.onlineCpus(),
                        CpuSet.range(0, 3),
                        Map.of("CPU", "/sys/fs/cgroup/cpuset/cri-resmgr-test-05-1"),
                        Map.of("CPU", "cpuset:11")),
                    TopologyAwareOptions.DEFAULTS);
    Harness h = new Harness(N4C16, Map.of(), "750m");
    h.policy = policy;
    h.guaranteed("pod0", 2, 980, 100 * MB);
    assertEquals(CpuSet.of(1, 2, 3), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(4), h.cpus("pod0c1"));
    h.guaranteed("pod1", 1, 1000, 100 * MB);
    h.assertDisjoint("pod1c0", "pod0c0", "pod0c1");
  }
}
