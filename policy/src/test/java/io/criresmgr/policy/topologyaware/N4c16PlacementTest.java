package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The placements the reference e2e suite expects on {@code n4c16} (cri-resmgr's {@code
 * test/e2e/policies.test-suite/topology-aware/n4c16}), at the policy level: reserved {@code 750m}
 * (cpu0), Guaranteed pods with 100M of memory.
 */
class N4c16PlacementTest {
  private final Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");

  @Test
  void test00OneCpuContainersSpreadOverTheNumaNodes() {
    h.guaranteed("pod0", 4, 1000, 100 * MB);
    assertEquals(Set.of(1), h.nodes("pod0c0"));
    assertEquals(Set.of(2), h.nodes("pod0c1"));
    assertEquals(Set.of(3), h.nodes("pod0c2"));
    assertEquals(Set.of(0), h.nodes("pod0c3"));
    h.assertDisjoint("pod0c0", "pod0c1", "pod0c2", "pod0c3");
    h.delete("pod0");
    h.guaranteed("pod1", 4, 3000, 100 * MB);
    for (int i = 0; i < 4; i++) {
      assertEquals(3, h.cpus("pod1c" + i).size());
      assertEquals(1, h.nodes("pod1c" + i).size());
    }
    h.assertDisjoint("pod1c0", "pod1c1", "pod1c2", "pod1c3");
  }

  @Test
  void test00BurstableContainersSpreadOverTheNumaNodes() {
    h.create("default", "pod2", 4, Harness.resources(2000, 4000, 100 * MB, 200 * MB));
    h.assertDisjoint("pod2c0", "pod2c1", "pod2c2", "pod2c3");
    for (int i = 0; i < 4; i++) {
      for (int j = i + 1; j < 4; j++) {
        assertEquals(
            Set.of(),
            intersection(h.nodes("pod2c" + i), h.nodes("pod2c" + j)),
            "pod2c" + i + " and pod2c" + j);
      }
    }
  }

  @Test
  void test03AffinitiesPullContainersTogether() {
    h.create(
        "default",
        "pod1",
        4,
        new Resources(1000, 1000, 100 * MB, 100 * MB),
        Map.of(
            "cri-resource-manager.intel.com/affinity", "pod1c0: [ pod1c1 ]\npod1c2: [ pod1c3 ]\n"));
    assertEquals(Set.of(1), h.nodes("pod1c0"));
    assertEquals(Set.of(1), h.nodes("pod1c1"));
    assertEquals(Set.of(2), h.nodes("pod1c2"));
    assertEquals(Set.of(2), h.nodes("pod1c3"));
  }

  @Test
  void test03AntiAffinitiesPushContainersApart() {
    h.create(
        "default",
        "pod2",
        6,
        new Resources(1000, 1000, 100 * MB, 100 * MB),
        Map.of(
            "cri-resource-manager.intel.com/anti-affinity",
            "pod2c4: [ pod2c0, pod2c1, pod2c2 ]\npod2c5: [ pod2c0, pod2c2, pod2c3 ]\n"));
    for (String other : new String[] {"pod2c0", "pod2c1", "pod2c2"}) {
      assertEquals(Set.of(), intersection(h.nodes("pod2c4"), h.nodes(other)), other);
    }
    for (String other : new String[] {"pod2c0", "pod2c2", "pod2c3"}) {
      assertEquals(Set.of(), intersection(h.nodes("pod2c5"), h.nodes(other)), other);
    }
  }

  @Test
  void test01AlwaysFits() {
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    assertEquals(CpuSet.of(4), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(1), h.mems("pod0c0"));
    h.guaranteed("pod1", 1, 2000, 100 * MB);
    assertEquals(CpuSet.of(4), h.cpus("pod0c0"));
    assertEquals(CpuSet.of(8, 9), h.cpus("pod1c0"));
    assertEquals(Set.of(2), h.nodes("pod1c0"));
    h.guaranteed("pod2", 1, 3000, 100 * MB);
    assertEquals(1, h.cores("pod1c0").size());
    assertEquals(3, h.cpus("pod2c0").size());
    assertEquals(2, h.cores("pod2c0").size());
    assertEquals(1, h.nodes("pod2c0").size());
    h.guaranteed("pod3", 1, 4000, 100 * MB);
    assertEquals(4, h.cpus("pod3c0").size());
    assertEquals(2, h.cores("pod3c0").size());
    assertEquals(2, h.nodes("pod3c0").size());
    h.assertDisjoint("pod0c0", "pod1c0", "pod2c0", "pod3c0");
    for (String pod : new String[] {"pod0", "pod1", "pod2", "pod3"}) {
      h.delete(pod);
    }
    h.guaranteed("pod4", 1, 5000, 100 * MB);
    assertEquals(5, h.cpus("pod4c0").size());
    assertEquals(3, h.cores("pod4c0").size());
    assertEquals(2, h.nodes("pod4c0").size());
    assertEquals(1, h.packages("pod4c0").size());
    h.guaranteed("pod5", 1, 7000, 100 * MB);
    assertEquals(CpuSet.range(1, 7), h.cpus("pod5c0"));
    assertEquals(4, h.cores("pod5c0").size());
    h.assertDisjoint("pod4c0", "pod5c0");
    h.delete("pod4");
    h.delete("pod5");
    h.guaranteed("pod6", 1, 9000, 100 * MB);
    assertEquals(9, h.cpus("pod6c0").size());
    assertEquals(2, h.packages("pod6c0").size());
  }

  @Test
  void test01BurstableAlwaysFits() {
    Resources r3 = Harness.resources(3000, 4000, 100 * MB, 200 * MB);
    h.create("default", "pod0", 1, r3);
    h.create("default", "pod1", 1, Harness.resources(4000, 5000, 100 * MB, 200 * MB));
    h.create("default", "pod2", 1, Harness.resources(5000, 6000, 100 * MB, 200 * MB));
    assertAtLeast(2, "pod0c0");
    assertAtLeast(4, "pod1c0");
    assertAtLeast(5, "pod2c0");
    h.delete("pod0");
    h.delete("pod1");
    h.create("default", "pod3", 1, Harness.resources(8000, 9000, 100 * MB, 200 * MB));
    assertAtLeast(5, "pod2c0");
    assertAtLeast(8, "pod3c0");
    h.delete("pod3");
    h.create("default", "pod4", 1, Harness.resources(5000, 6000, 100 * MB, 200 * MB));
    h.create("default", "pod5", 1, Harness.resources(4000, 5000, 100 * MB, 200 * MB));
    assertAtLeast(5, "pod2c0");
    assertAtLeast(5, "pod4c0");
    assertAtLeast(4, "pod5c0");
  }

  @Test
  void test02ShrinkAndGrowShared() {
    h.guaranteed("pod0", 2, 5000, 100 * MB);
    h.create("default", "pod1", 2, Resources.NONE);
    h.assertDisjoint("pod0c0", "pod0c1");
    for (String c : new String[] {"pod0c0", "pod0c1"}) {
      assertEquals(5, h.cpus(c).size());
      assertEquals(2, h.nodes(c).size());
      assertEquals(1, h.packages(c).size());
    }
    CpuSet exclusive = h.cpus("pod0c0").union(h.cpus("pod0c1"));
    CpuSet shared = h.cpus("pod1c0").union(h.cpus("pod1c1"));
    assertEquals(false, shared.isEmpty());
    assertEquals(false, shared.intersects(exclusive));
    h.delete("pod0");
    h.guaranteed("pod2", 4, 3000, 100 * MB);
    h.assertDisjoint("pod2c0", "pod2c1", "pod2c2", "pod2c3");
    h.guaranteed("pod3", 1, 1000, 100 * MB);
    CpuSet taken = CpuSet.EMPTY;
    for (String c : new String[] {"pod2c0", "pod2c1", "pod2c2", "pod2c3", "pod3c0"}) {
      taken = taken.union(h.cpus(c));
    }
    assertEquals(false, h.cpus("pod1c0").union(h.cpus("pod1c1")).intersects(taken));
  }

  @Test
  void test00ColocatePodsPutsAPodsContainersTogether() {
    TopologyAwareOptions colocate = TopologyAwareOptions.builder().colocatePods(true).build();
    Harness c = new Harness(Topologies.n4c16(), Map.of(), "750m", colocate);
    c.guaranteed("pod4", 4, 100, 100 * MB);
    for (int i = 1; i < 4; i++) {
      assertEquals(c.cpus("pod4c0"), c.cpus("pod4c" + i));
    }
  }

  @Test
  void test05ReservedCpusetNotAvailableFailsToStart() {
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () ->
                new Harness(
                    Topologies.n4c16(), Map.of("CPU", "cpuset:4-7,8-13"), "cpuset:3,7,11,15"));
    assertEquals(
        "policy.ReservedResources.CPU: invalid value \"cpuset:3,7,11,15\": CPUs 3,15 are not among"
            + " the available CPUs 4-13 (policy.AvailableResources.CPU); reserve available CPUs",
        e.getMessage());
  }

  @Test
  void test05TooManyReservedCpusFailToStart() {
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> new Harness(Topologies.n4c16(), Map.of("CPU", "cpuset:4-7,8-13"), "11"));
    assertEquals(
        "policy.ReservedResources.CPU: invalid value \"11\": 11 CPUs do not fit in the 10 available"
            + " non-isolated CPUs (4-13)",
        e.getMessage());
  }

  @Test
  void test05ReservedCpusOnOneNode() {
    Harness r = new Harness(Topologies.n4c16(), Map.of("CPU", "cpuset:4-7,8-13"), "cpuset:10-11");
    r.create("kube-system", "pod0", 3, Resources.NONE);
    for (int i = 0; i < 3; i++) {
      assertEquals(CpuSet.of(10, 11), r.cpus("pod0c" + i));
    }
  }

  @Test
  void test05ReservedCpusOnTwoNodes() {
    Harness r = new Harness(Topologies.n4c16(), Map.of("CPU", "cpuset:4-7,8-13"), "cpuset:7,11");
    r.create("kube-system", "pod1", 4, Resources.NONE);
    r.create("kube-system", "pod2", 4, new Resources(200, 200, 100 * MB, 100 * MB));
    for (int i = 0; i < 4; i++) {
      assertEquals(CpuSet.of(7, 11), r.cpus("pod1c" + i));
      assertEquals(CpuSet.of(7, 11), r.cpus("pod2c" + i));
    }
    for (String pod : new String[] {"pod3", "pod4"}) {
      r.create("kube-system", pod, 1, new Resources(1000, 1000, 100 * MB, 100 * MB));
      assertEquals(CpuSet.of(7, 11), r.cpus(pod + "c0"));
      r.delete(pod);
    }
    r.create("kube-system", "pod5", 1, new Resources(2000, 2000, 100 * MB, 100 * MB));
    assertEquals(CpuSet.parse("4-6,8-10,12-13"), r.cpus("pod5c0"));
  }

  @Test
  void test05ReservedQuantityTakesTheFirstAvailableCpus() {
    Harness r = new Harness(Topologies.n4c16(), Map.of("CPU", "cpuset:4-7,8-13"), "2250m");
    r.create("kube-system", "pod0", 1, Resources.NONE);
    assertEquals(CpuSet.of(4, 5, 6), r.cpus("pod0c0"));
  }

  @Test
  void test04AvailableCpusAreTheOnlyOnesUsed() {
    Harness r = new Harness(Topologies.n4c16(), Map.of("CPU", "cpuset:4-7,8-11"), "cpuset:11");
    r.guaranteed("pod0", 1, 3000, 100 * MB);
    assertEquals(CpuSet.of(4, 5, 6), r.cpus("pod0c0"));
    assertEquals(CpuSet.of(1), r.mems("pod0c0"));
    r.guaranteed("pod1", 2, 980, 100 * MB);
    assertEquals(CpuSet.of(8, 9, 10), r.cpus("pod1c0"));
    assertEquals(CpuSet.of(8, 9, 10), r.cpus("pod1c1"));
    assertEquals(CpuSet.of(2), r.mems("pod1c1"));
  }

  private void assertAtLeast(int n, String name) {
    assertEquals(true, h.cpus(name).size() >= n, name + " has " + h.cpus(name));
  }

  private static Set<Integer> intersection(Set<Integer> a, Set<Integer> b) {
    Set<Integer> s = new java.util.HashSet<>(a);
    s.retainAll(b);
    return s;
  }
}
