package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.BalloonsOptionsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Map;

/** Helpers of the review tests: a balloons node, allocating and releasing, CPU checks. */
abstract class BalloonsReviewFixture {
  static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  static final String ANNOTATION = "balloon.balloons.cri-resource-manager.intel.com";

  /** The configuration of cri-resmgr's balloons e2e suite ({@code balloons/cri-resmgr.cfg}). */
  static final String SUITE =
      """
      BalloonTypes:
        - {Name: two-cpu, MinCPUs: 2, MaxCPUs: 2, AllocatorPriority: 0, CPUClass: class2,
           PreferNewBalloons: true}
        - {Name: three-cpu, Namespaces: ["three"], MinCPUs: 3, AllocatorPriority: 1,
           CPUClass: class3, PreferSpreadingPods: true}
        - {Name: four-cpu, MinCPUs: 4, MaxCPUs: 8, MinBalloons: 1, AllocatorPriority: 2,
           CPUClass: class4}
        - {Name: five-cpu, MaxCPUs: 5, AllocatorPriority: 3, PreferSpreadingPods: true,
           PreferNewBalloons: true, CPUClass: class5}
      """;

  final BalloonsNode fixture = new BalloonsNode();
  final FakeNode node = fixture.node;

  static BalloonsPolicy policy(String yaml, CpuSet allowed, CpuSet reserved) throws Exception {
    return new BalloonsPolicy("balloons", N4C16, parse(yaml), allowed, reserved);
  }

  /** Allocates container {@code name} of pod {@code pod} in {@code ns} annotated {@code type}. */
  Decisions allocate(
      BalloonsPolicy p, String ns, String pod, String type, String name, long milli) {
    fixture.pod(ns, pod, type.isEmpty() ? Map.of() : Map.of(ANNOTATION, type));
    return fixture.allocate(p, ns, pod, name, milli);
  }

  /** Releases a container as the pipeline does: no longer active, released, then removed. */
  Decisions release(BalloonsPolicy p, String pod, String name) {
    return fixture.releaseRemoved(p, pod, name);
  }

  /** Releases containers named {@code <pod>c<i>}, e.g. {@code pod4c0}, in order. */
  void releaseAll(BalloonsPolicy p, String... containers) {
    for (String name : containers) {
      release(p, name.substring(0, name.lastIndexOf('c')), name);
    }
  }

  CpuSet cpus(String pod, String name) {
    return fixture.cpus(pod, name);
  }

  static void assertDisjoint(CpuSet... sets) {
    for (int a = 0; a < sets.length; a++) {
      for (int b = a + 1; b < sets.length; b++) {
        assertFalse(sets[a].intersects(sets[b]), sets[a] + " and " + sets[b] + " intersect");
      }
    }
  }

  static String balloons(Decisions d) {
    return BalloonsNode.balloons(d);
  }

  /** Allocates containers c0 and c1 of {@code pod}, checking they share their CPUs. */
  void pair(BalloonsPolicy p, String ns, String pod, long milli) {
    allocate(p, ns, pod, "", pod + "c0", milli);
    allocate(p, ns, pod, "", pod + "c1", milli);
    assertEquals(cpus(pod, pod + "c0"), cpus(pod, pod + "c1"));
  }

  /** The physical cores of {@code cpus}, by their lowest CPU. */
  static java.util.Set<Integer> cores(SystemTopology t, CpuSet cpus) {
    return cpus.stream()
        .mapToObj(id -> t.coreCpus(id).stream().min().orElseThrow())
        .collect(java.util.stream.Collectors.toSet());
  }

  void pairOf(BalloonsPolicy p, String pod, String type, long milli) {
    fixture.pod("default", pod, Map.of(ANNOTATION, type));
    pair(p, "default", pod, milli);
  }

  static int countOf(List<Integer> values, int value) {
    return (int) values.stream().filter(v -> v == value).count();
  }

  /** The balloon CPUs (without shared idle CPUs) of the balloon holding {@code pod}'s c0. */
  CpuSet ownCpus(BalloonsPolicy p, String pod) {
    String id = BalloonsNode.id(pod, pod + "c0");
    return fixture.balloons().stream()
        .filter(b -> b.containers().containsKey(id))
        .findFirst()
        .orElseThrow()
        .cpus();
  }
}
