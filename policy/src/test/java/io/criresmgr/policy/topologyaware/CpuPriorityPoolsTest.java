package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.CpuFrequency;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A preferred CPU priority steers the choice of pool, as nri-plugins scores pools ({@link
 * PoolSelector}): a container goes to a pool whose free CPUs of its priority hold it.
 */
class CpuPriorityPoolsTest {
  private static final String PRIO = "prefer-cpu-priority.cri-resource-manager.intel.com/pod";
  private static final String NRI_PRIO = "prefer-cpu-priority.resource-policy.nri.io/pod";

  /**
   * {@code n4c16} where socket 0 has two base frequencies: node 0 (cpu0-3) is high priority, node 1
   * (cpu4-7) low; socket 1 (nodes 2, 3) has one, so its CPUs are normal priority.
   */
  private static SystemTopology sst() {
    SystemTopology t = Topologies.n4c16();
    return withCpus(
        t,
        id ->
            t.cpu(id).packageId() == 1
                ? CpuFrequency.UNKNOWN
                : new CpuFrequency(800_000, 3_500_000, id < 4 ? 3_000_000 : 2_000_000, ""),
        id -> CoreType.UNKNOWN);
  }

  private static SystemTopology withCpus(
      SystemTopology t, IntFunction<CpuFrequency> freq, IntFunction<CoreType> type) {
    Map<Integer, Cpu> cpus = new TreeMap<>();
    for (Cpu c : t.cpus().values()) {
      cpus.put(
          c.id(),
          new Cpu(
              c.id(),
              c.packageId(),
              c.dieId(),
              c.nodeId(),
              c.coreId(),
              c.threads(),
              freq.apply(c.id()),
              type.apply(c.id())));
    }
    return new SystemTopology(cpus, t.nodes(), t.presentCpus(), t.isolatedCpus());
  }

  private static Harness harness(SystemTopology t, String options) throws Exception {
    return Harness.withPreferences(
        t, Map.of(), "750m", TopologyAwareOptions.parse(new YAMLMapper().readTree(options)));
  }

  private static Resources guaranteed(long milli) {
    return new Resources(milli, milli, 100 * MB, 100 * MB);
  }

  @Test
  void highLowAndNormalPreferencesPickThePoolsWithSuchCpus() throws Exception {
    Harness h = harness(sst(), "{}");
    // the reserved CPU is a normal priority one: cpu8
    h.create("default", "normal", 1, guaranteed(2000), Map.of(PRIO, "normal"));
    h.create("default", "low", 1, guaranteed(2000), Map.of(NRI_PRIO, "low"));
    h.create("default", "high", 1, guaranteed(2000), Map.of(PRIO, "high"));
    assertEquals(CpuSet.of(0, 1), h.cpus("highc0"));
    assertEquals(CpuSet.of(4, 5), h.cpus("lowc0"));
    assertEquals(CpuSet.of(12, 13), h.cpus("normalc0"));
    assertEquals(CpuSet.of(0), h.mems("highc0"));
  }

  @Test
  void whenNoPoolHasEnoughCpusOfThePriorityTheUsualOrderDecides() throws Exception {
    Harness h = harness(sst(), "{}");
    h.create("default", "first", 1, guaranteed(2000), Map.of(PRIO, "high"));
    h.create("default", "second", 1, guaranteed(3000), Map.of(PRIO, "high"));
    assertEquals(CpuSet.of(0, 1), h.cpus("firstc0"));
    // two high priority CPUs are left (cpu2, cpu3): most free shared capacity, then the lowest id
    assertEquals(CpuSet.of(4, 5, 6), h.cpus("secondc0"));
  }

  @Test
  void defaultCpuPriorityOptionSteersUnannotatedContainers() throws Exception {
    Harness h = harness(sst(), "{DefaultCPUPriority: low}");
    h.create("default", "pod0", 2, guaranteed(1000));
    assertTrue(CpuSet.range(4, 7).containsAll(h.cpus("pod0c0")), h.cpus("pod0c0").toString());
    assertTrue(CpuSet.range(4, 7).containsAll(h.cpus("pod0c1")), h.cpus("pod0c1").toString());
    // the annotation overrides the option: no preference, the usual order (node 0)
    h.create("default", "pod1", 1, guaranteed(1000), Map.of(PRIO, "none"));
    assertEquals(CpuSet.of(0), h.cpus("pod1c0"));
  }

  @Test
  void sharedContainersFollowTheirPriorityToo() throws Exception {
    Harness h = harness(sst(), "{}");
    h.create("default", "shared", 1, guaranteed(500), Map.of(PRIO, "low"));
    assertEquals(CpuSet.of(4, 5, 6, 7), h.cpus("sharedc0"));
  }

  @Test
  void performanceAndEfficientCoresCountWhereverTheyAre() throws Exception {
    // socket 0 P-cores, socket 1 E-cores: the allocator's classes (per socket) see no difference
    SystemTopology t =
        TopologySpec.parse(
                "[{mem: 2G, cores: 2, nodes: 2, core-type: performance},"
                    + " {mem: 2G, cores: 2, nodes: 2, core-type: efficient}]")
            .topology();
    Harness h = harness(t, "{}");
    h.create("default", "low", 1, guaranteed(2000), Map.of(PRIO, "low"));
    h.create("default", "high", 1, guaranteed(2000), Map.of(PRIO, "high"));
    assertEquals(CpuSet.of(8, 9), h.cpus("lowc0"));
    assertEquals(CpuSet.of(4, 5), h.cpus("highc0"));
  }
}
