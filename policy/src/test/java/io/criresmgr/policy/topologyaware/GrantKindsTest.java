package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every kind of grant on {@code n4c16}, and what its assignment looks like. */
class GrantKindsTest {
  private static CpuRequest with(CpuRequest c, boolean isolate, boolean require, boolean hide) {
    return new CpuRequest(
        c.kind(), c.full(), c.fractionMilli(), isolate, require, c.priority(), hide, 0);
  }

  private static Harness isolcpus() {
    return new Harness(Topologies.n4c16(CpuSet.of(8, 9)), Map.of(), "750m");
  }

  @Test
  void test08IsolatedCpusGoToContainersThatPreferThem() {
    Harness h = isolcpus();
    h.requests
        .cpu("pod0c0", c -> with(c, true, false, false))
        .cpu("pod1c0", c -> with(c, false, false, false));
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    assertTrue(Set.of(CpuSet.of(8), CpuSet.of(9)).contains(h.cpus("pod0c0")));
    assertEquals(CpuSet.of(2), h.mems("pod0c0"));
    h.guaranteed("pod1", 1, 1000, 100 * MB);
    assertFalse(h.cpus("pod1c0").intersects(CpuSet.of(8, 9)));
    h.guaranteed("pod2", 1, 1000, 100 * MB); // PreferIsolatedCPUs is on by default
    assertEquals(CpuSet.of(8, 9), h.cpus("pod0c0").union(h.cpus("pod2c0")));
    assertEquals(CpuSet.of(2), h.mems("pod2c0"));
  }

  @Test
  void test08MixedGrantsTakeIsolatedAndSharedCpus() {
    Harness h = isolcpus();
    h.requests
        .cpu("pod3c0", c -> SimpleRequests.cpu(CpuKind.NORMAL, 2, 0, true))
        .cpu("pod4c0", c -> SimpleRequests.cpu(CpuKind.NORMAL, 2, 500, true))
        .cpu("pod5c0", c -> SimpleRequests.cpu(CpuKind.NORMAL, 1, 500, true))
        .cpu("pod6c0", c -> SimpleRequests.cpu(CpuKind.NORMAL, 3, 0, true));
    h.guaranteed("pod3", 1, 2000, 100 * MB);
    assertEquals(CpuSet.of(8, 9), h.cpus("pod3c0"));
    h.delete("pod3");
    h.guaranteed("pod4", 1, 2500, 100 * MB);
    assertEquals(CpuSet.range(8, 11), h.cpus("pod4c0"));
    h.delete("pod4");
    h.guaranteed("pod5", 1, 1500, 100 * MB);
    assertEquals(3, h.cpus("pod5c0").size());
    assertTrue(h.cpus("pod5c0").containsAll(CpuSet.of(10, 11)));
    h.delete("pod5");
    h.guaranteed("pod6", 1, 3000, 100 * MB);
    assertEquals(3, h.cpus("pod6c0").size());
    assertFalse(h.cpus("pod6c0").intersects(CpuSet.of(8, 9)));
    assertEquals(1, h.mems("pod6c0").size());
    h.create("default", "pod7", 4, new Resources(200, 200, 100 * MB, 100 * MB));
    for (int i = 0; i < 4; i++) {
      assertFalse(h.cpus("pod7c" + i).intersects(CpuSet.of(8, 9)));
      assertTrue(h.cpus("pod7c" + i).size() >= 2);
    }
  }

  @Test
  void requiredIsolationFailsWithoutIsolatedCpus() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    h.requests.cpu("pod0c0", c -> with(c, true, true, false));
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod0", 1, 1000, 100 * MB));
    assertTrue(e.getMessage().contains("requires isolated CPUs"), e.getMessage());
  }

  @Test
  void hiddenHyperthreadsLeaveOneThreadPerCore() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    h.requests.cpu("pod0c0", c -> with(c, false, false, true));
    h.guaranteed("pod0", 1, 2000, 100 * MB);
    assertEquals(CpuSet.of(4), h.cpus("pod0c0"));
  }

  @Test
  void sharesFollowTheSharedOrReservedPart() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    h.guaranteed("pod0", 1, 2000, 100 * MB);
    h.guaranteed("pod1", 1, 500, 100 * MB);
    h.guaranteed("pod2", 1, 1500, 100 * MB);
    h.create("kube-system", "pod3", 1, new Resources(250, 250, 0, 0));
    h.create("default", "pod4", 1, Resources.NONE);
    assertEquals(2, h.byName("pod0c0").assignment().cpuShares());
    assertEquals(512, h.byName("pod1c0").assignment().cpuShares());
    assertEquals(512, h.byName("pod2c0").assignment().cpuShares());
    assertEquals(256, h.byName("pod3c0").assignment().cpuShares());
    assertEquals(CpuSet.of(0), h.cpus("pod3c0"));
    assertEquals(2, h.byName("pod4c0").assignment().cpuShares());
  }

  @Test
  void preservedCpusAndMemoryAreLeftAlone() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    h.requests
        .cpu(
            "pod0c0",
            c ->
                new CpuRequest(CpuKind.PRESERVE, 0, 1000, false, false, CpuPriority.NONE, false, 0))
        .memory("pod1c0", m -> new MemoryRequest(m.types(), m.bytes(), m.coldStart(), true));
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    h.guaranteed("pod1", 1, 1000, 100 * MB);
    assertEquals(CpuSet.EMPTY, h.cpus("pod0c0"));
    assertEquals(0, h.byName("pod0c0").assignment().cpuShares());
    assertEquals(CpuSet.range(0, 3), h.mems("pod0c0"));
    assertEquals(1, h.cpus("pod1c0").size());
    assertEquals(CpuSet.EMPTY, h.mems("pod1c0"));
  }

  @Test
  void pinningCanBeTurnedOff() {
    TopologyAwareOptions off =
        TopologyAwareOptions.builder().pinCpu(false).pinMemory(false).build();
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m", off);
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    assertEquals(io.criresmgr.cache.Assignment.NONE, h.byName("pod0c0").assignment());
  }

  @Test
  void initContainersAreReleasedBeforeTheNextContainer() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    Resources five = new Resources(5000, 5000, 100 * MB, 100 * MB);
    Pod pod =
        new Pod(
            "sandbox-pod3",
            "uid-pod3",
            "pod3",
            "default",
            Map.of(),
            Map.of(),
            "/kubepods/podpod3",
            Harness.qos(five),
            io.criresmgr.cache.PodResources.NONE,
            true);
    h.node.cache().putPod(pod);
    for (String name : new String[] {"pod3c0i", "pod3c1i", "pod3c2i", "pod3c0", "pod3c1"}) {
      Container c = h.container(pod, name, five, name.endsWith("i"));
      h.node.cache().putContainer(c);
      h.apply(h.policy.allocate(c, h.node.cache()));
      h.node.setState(c.cacheId(), ContainerState.RUNNING);
    }
    h.assertDisjoint("pod3c0", "pod3c1");
    assertEquals(5, h.cpus("pod3c1").size());
    assertEquals(Set.of(), intersection(h.packages("pod3c0"), h.packages("pod3c1")));
  }

  @Test
  void aRequestThatFitsNowhereSaysWhatWasAskedAndWhatIsFree() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    PolicyException e =
        assertThrows(PolicyException.class, () -> h.guaranteed("pod0", 1, 16000, 100 * MB));
    assertEquals(
        "topology-aware: cannot allocate 16 exclusive CPUs, memory 95.37M (dram,pmem,hbm) for"
            + " pod0:pod0c0: no pool has room for it; the root has 15000m of shared CPU left on"
            + " CPUs 1-15 (a pool whose shared CPUs containers use keeps at least one of them), 0"
            + " free isolated CPUs and free memory DRAM 8.00G",
        e.getMessage());
  }

  @Test
  void bestEffortContainersFitWhenTheSharedCapacityIsBooked() {
    Harness h = new Harness(Topologies.n4c16(), Map.of("CPU", "cpuset:4-7"), "cpuset:7");
    h.create("default", "pod0", 1, new Resources(3000, 4000, 0, 0));
    h.create("default", "pod1", 1, Resources.NONE);
    assertEquals(CpuSet.of(4, 5, 6), h.cpus("pod1c0"));
  }

  @Test
  void reservedRequestsUseNormalCpusWithoutReservedOnes() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "0");
    h.create("kube-system", "pod0", 1, new Resources(100, 100, 0, 0));
    assertEquals(CpuSet.range(0, 15), h.cpus("pod0c0"));
  }

  @Test
  void aReservedNamespaceOptOutUsesNormalCpusAtTheRoot() {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    h.requests.cpu("pod0c0", c -> SimpleRequests.cpu(CpuKind.NORMAL, 0, 100, false));
    h.create("kube-system", "pod0", 1, new Resources(100, 100, 0, 0));
    assertEquals(CpuSet.range(1, 15), h.cpus("pod0c0"));
  }

  private static Set<Integer> intersection(Set<Integer> a, Set<Integer> b) {
    Set<Integer> s = new java.util.HashSet<>(a);
    s.retainAll(b);
    return s;
  }
}
