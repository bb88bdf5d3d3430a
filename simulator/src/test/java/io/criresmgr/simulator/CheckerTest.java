package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.NumaNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CheckerTest {
  /** 1 package, 2 NUMA nodes, 2 cores of 2 threads each: node0 = cpu0-3, node1 = cpu4-7. */
  static SystemTopology topology() {
    Map<Integer, Cpu> cpus = new HashMap<>();
    for (int id = 0; id < 8; id++) {
      int core = id / 2;
      cpus.put(
          id,
          new Cpu(
              id,
              0,
              0,
              id / 4,
              core,
              CpuSet.of(core * 2, core * 2 + 1),
              CpuFrequency.UNKNOWN,
              CoreType.UNKNOWN));
    }
    Map<Integer, NumaNode> nodes =
        Map.of(
            0,
                new NumaNode(
                    0,
                    CpuSet.range(0, 3),
                    1L << 30,
                    MemoryType.DRAM,
                    false,
                    Map.of(0, 10, 1, 11),
                    true),
            1,
                new NumaNode(
                    1,
                    CpuSet.range(4, 7),
                    1L << 30,
                    MemoryType.DRAM,
                    false,
                    Map.of(0, 11, 1, 10),
                    true));
    return new SystemTopology(cpus, nodes, CpuSet.range(0, 7), CpuSet.EMPTY);
  }

  private static Observed observed() {
    SystemTopology t = topology();
    Map<String, ContainerFacts> running = new LinkedHashMap<>();
    running.put(
        "pod0c0",
        ContainerFacts.of("pod0c0", "pod0", "default", "1", CpuSet.of(1), CpuSet.of(0), t));
    running.put(
        "pod0c1",
        ContainerFacts.of("pod0c1", "pod0", "default", "2", CpuSet.of(4, 5), CpuSet.of(1), t));
    running.put(
        "pod1c0",
        ContainerFacts.of(
            "pod1c0", "pod1", "default", "3", CpuSet.parse("2-3,6-7"), CpuSet.of(0, 1), t));
    return new Observed(running, Set.of("pod0c0"), MissingNode.getInstance(), Set.of());
  }

  private static List<String> failures(String verify) {
    Verify v = Verify.parse(LocatedYaml.read("t", verify));
    return new Checker(observed()).failures(v);
  }

  @Test
  void derivesEveryAttributeFromTheTopology() {
    ContainerFacts c = observed().running().get("pod0c1");
    assertEquals(
        List.of("node1/core2/thread0", "node1/core2/thread1"),
        List.copyOf(c.set(Attribute.THREADS)));
    assertEquals(List.of("node1/core2"), List.copyOf(c.set(Attribute.CORES)));
    assertEquals(List.of("package0/die0"), List.copyOf(c.set(Attribute.DIES)));
    assertEquals(
        List.of(),
        failures(
            "{pod0c1: {cpus: [cpu04, 5], nodes: [1], packages: [0],"
                + " cores: 1, threads: 2, mems: [node1]}, pod1c0: {cores: 2, nodes: 2}}"));
  }

  @Test
  void reportsCountsAndSetsWithExpectedAndActual() {
    assertEquals(
        List.of("pod0c0 cpus: expected 2 items, got 1: {cpu1}"), failures("{pod0c0: {cpus: 2}}"));
    assertEquals(
        List.of("pod0c1 cpus: expected {cpu4,cpu6}, got {cpu4,cpu5}"),
        failures("{pod0c1: {cpus: [4, 6]}}"));
    assertEquals(List.of(), failures("{pod1c0: {cpus: \">=4\"}, pod0c0: {cpus: \"<2\"}}"));
    assertEquals(
        List.of("pod1c0 cpus: expected none of {cpu7}, got {cpu2,cpu3,cpu6,cpu7}"),
        failures("{pod1c0: {cpus: {contains: [2, 3], excludes: [7]}}}"));
    assertEquals(List.of(), failures("{pod0c0: {cpus: {one-of: [[cpu8], [cpu1]]}}}"));
  }

  @Test
  void minusSubtractsOtherContainers() {
    assertEquals(List.of(), failures("{pod1c0: {cpus: {minus: others, count: 4}}}"));
    assertEquals(List.of(), failures("{pod1c0: {mems: {minus: [pod0c0], equals: [1]}}}"));
    assertEquals(
        List.of("pod1c0 mems minus others: expected 1 items, got 0: {}"),
        failures("{pod1c0: {mems: {minus: others, count: 1}}}"));
  }

  @Test
  void relationsWithUnions() {
    assertEquals(List.of(), failures("{disjoint: [[cpus, pod0c0, pod0c1, pod1c0]]}"));
    assertEquals(
        List.of(
            "disjoint mems of pod0c0+pod0c1, pod1c0: got"
                + " pod0c0+pod0c1={node0,node1}, pod1c0={node0,node1}"),
        failures("{disjoint: [mems, pod0c0+pod0c1, pod1c0]}"));
    assertEquals(
        List.of(),
        failures(
            "{same: [[mems, pod0c0+pod0c1, pod1c0]],"
                + " different: [[cpus, pod0c0, pod0c1]], subset: [[nodes, pod0c0, pod1c0]]}"));
    assertEquals(
        List.of("same cpus of pod0c0, pod9c9: not running: pod9c9"),
        failures("{same: [cpus, pod0c0, pod9c9]}"));
  }

  @Test
  void presenceAllocationAllAndAny() {
    assertEquals(
        List.of(),
        failures("{pod2c0: absent, pod0c0: {allocated: true}," + " pod0c1: {allocated: false}}"));
    assertEquals(
        List.of("pod0c0: expected not running, it runs with cpus {cpu1}"),
        failures("{pod0c0: absent}"));
    assertEquals(
        List.of("pod1c0 mems: expected 1 items, got 2: {node0,node1}"),
        failures("{all: {mems: 1}}"));
    assertEquals(List.of(), failures("{any: [{pod0c0: {cpus: 3}}, {pod0c1: {cpus: 2}}]}"));
    assertEquals(
        List.of(
            "none of the alternatives holds: any[0]: pod0c0 cpus: expected 3 items,"
                + " got 1: {cpu1} | any[1]: pod0c1 cpus: expected 3 items, got 2: {cpu4,cpu5}"),
        failures("{any: [{pod0c0: {cpus: 3}}, {pod0c1: {cpus: 3}}]}"));
  }
}
