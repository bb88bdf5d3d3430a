package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MemoryNodesTest {
  // tiered: CPU nodes 0 (cpus 0-7) and 1 (8-15); PMEM 2 (near 0) and 3 (near 1); HBM 4 (near 0)
  // and 5 (near 1); a CXL expander 6 (DRAM, distance 20 from node 0 and 26 from node 1)
  private static final SystemTopology TIERED = TopologySpec.builtIn("tiered").topology();
  private static final SystemTopology C4PMEM4 = TopologySpec.builtIn("c4pmem4").topology();
  private static final SystemTopology N4C16 = TopologySpec.builtIn("n4c16").topology();
  private static final String BALLOON = "balloon.balloons.resource-policy.nri.io";
  private static final String MEMORY_TYPE = "memory-type.resource-policy.nri.io";

  private static final MemoryNodes TIERED_NODES = new MemoryNodes(TIERED);

  private static CpuSet mems(String cpus, MemoryType... types) {
    Set<MemoryType> wanted = EnumSet.noneOf(MemoryType.class);
    wanted.addAll(Set.of(types));
    return TIERED_NODES.of(CpuSet.parse(cpus), wanted);
  }

  @Test
  void noTypesMeansDram() {
    assertEquals(EnumSet.allOf(MemoryType.class), TIERED_NODES.present());
    // DRAM is the CPUs' own node: the CXL expander (6) is farther than local memory
    assertEquals(CpuSet.of(0), mems("0-3"));
    assertEquals(CpuSet.of(1), mems("8-11"));
    assertEquals(CpuSet.of(0, 1), mems("6-9"));
  }

  @Test
  void noTypesWithoutDramFallsBackToTheCpuNodes() {
    // nodes with CPUs but no memory (0, 1) and PMEM nodes 2, 3: no DRAM memory anywhere
    MemoryNodes noDram =
        new MemoryNodes(
            TopologySpec.parse(
                    "[{\"mem\": \"0\", \"cores\": 2, \"threads\": 1, \"packages\": 2},"
                        + " {\"mem\": \"8G\", \"mem-type\": \"pmem\", \"packages\": 2}]")
                .topology());
    assertEquals(CpuSet.of(0), noDram.of(CpuSet.of(0), Set.of()));
  }

  @Test
  void typesSelectTheCpuNodesForDramAndTheNearestMemoryOnlyNodes() {
    assertEquals(CpuSet.of(0), mems("0-3", MemoryType.DRAM));
    assertEquals(CpuSet.of(2), mems("0-3", MemoryType.PMEM));
    assertEquals(CpuSet.of(5), mems("8", MemoryType.HBM));
    assertEquals(CpuSet.of(1, 5), mems("8", MemoryType.HBM, MemoryType.DRAM));
    assertEquals(CpuSet.of(2, 3), mems("0-15", MemoryType.PMEM));
  }

  @Test
  void eachCpuNodeFindsItsOwnNearestPmem() {
    MemoryNodes c4 = new MemoryNodes(C4PMEM4);
    assertEquals(CpuSet.of(0), c4.of(CpuSet.of(0), Set.of()));
    assertEquals(CpuSet.of(0, 6), c4.of(CpuSet.of(0), Set.of(MemoryType.DRAM, MemoryType.PMEM)));
    assertEquals(CpuSet.of(1, 7), c4.of(CpuSet.of(1), EnumSet.allOf(MemoryType.class)));
    assertEquals(CpuSet.of(4, 5), c4.of(CpuSet.of(2, 3), Set.of(MemoryType.PMEM)));
  }

  @Test
  void typesTheSystemLacksFallBackToTheCpuNodes() {
    MemoryNodes n4 = new MemoryNodes(N4C16);
    assertEquals(Set.of(MemoryType.DRAM), n4.present());
    assertEquals(CpuSet.of(0, 1), n4.of(CpuSet.parse("0-5"), Set.of(MemoryType.PMEM)));
    assertEquals(CpuSet.of(0, 1), n4.of(CpuSet.parse("0-5"), Set.of()));
  }

  private static final String TYPES =
      """
      BalloonTypes:
        - Name: pm
          MinCPUs: 2
          MaxCPUs: 2
          MemoryTypes: [PMEM]
        - Name: any
          MinCPUs: 2
          MaxCPUs: 2
        - Name: nopin
          MinCPUs: 2
          MaxCPUs: 2
          PinMemory: false
      """;

  private static PolicyHarness tiered() throws Exception {
    return new PolicyHarness(TIERED, TYPES, CpuSet.of(0));
  }

  private static int node(CpuSet cpus) {
    return TIERED.cpu(cpus.stream().findFirst().orElseThrow()).nodeId();
  }

  @Test
  void theTypeAndTheAnnotationChooseMemoryTypes() throws Exception {
    PolicyHarness h = tiered();
    h.allocate("pa", "c0", 1000, Map.of(BALLOON, "pm"));
    h.allocate("pb", "c0", 1000, Map.of(BALLOON, "pm", MEMORY_TYPE, "hbm,DRAM"));
    h.allocate("pc", "c0", 1000, Map.of(BALLOON, "any", MEMORY_TYPE + "/container.c1", "pmem"));
    h.allocate("pc", "c1", 1000, Map.of());
    Assignment pa = h.assignment("pa", "c0");
    assertEquals(1, TIERED.cpuNodes(pa.cpus()).size());
    assertEquals(node(pa.cpus()) == 0 ? CpuSet.of(2) : CpuSet.of(3), pa.mems());
    CpuSet pb = h.assignment("pb", "c0").cpus();
    assertEquals(
        node(pb) == 0 ? CpuSet.of(0, 4) : CpuSet.of(1, 5), h.assignment("pb", "c0").mems());
    Assignment pc0 = h.assignment("pc", "c0");
    Assignment pc1 = h.assignment("pc", "c1");
    assertEquals(pc0.cpus(), pc1.cpus());
    boolean zero = node(pc0.cpus()) == 0;
    assertEquals(zero ? CpuSet.of(0) : CpuSet.of(1), pc0.mems());
    assertEquals(zero ? CpuSet.of(2) : CpuSet.of(3), pc1.mems());
  }

  @Test
  void aTypeWithoutMemoryTypesGetsDramAndHbmOnlyWhenAsked() throws Exception {
    PolicyHarness h =
        new PolicyHarness(
            TIERED,
            TYPES
                + """
                  - Name: hbm
                    MinCPUs: 2
                    MaxCPUs: 2
                    MemoryTypes: [HBM]
                """,
            CpuSet.of(0));
    h.allocate("pa", "c0", 1000, Map.of(BALLOON, "any"));
    h.allocate("pb", "c0", 1000, Map.of(BALLOON, "hbm"));
    CpuSet pa = h.assignment("pa", "c0").cpus();
    assertEquals(node(pa) == 0 ? CpuSet.of(0) : CpuSet.of(1), h.assignment("pa", "c0").mems());
    CpuSet pb = h.assignment("pb", "c0").cpus();
    assertEquals(node(pb) == 0 ? CpuSet.of(4) : CpuSet.of(5), h.assignment("pb", "c0").mems());
  }

  @Test
  void pinMemoryFalseLeavesMemsAlone() throws Exception {
    PolicyHarness h = tiered();
    h.allocate("pa", "c0", 1000, Map.of(BALLOON, "nopin", MEMORY_TYPE, "pmem"));
    assertEquals(Assignment.NONE.mems(), h.assignment("pa", "c0").mems());
    assertEquals(2, h.assignment("pa", "c0").cpus().size());
  }

  @Test
  void malformedOrAbsentTypesAreErrorsNamingTheAnnotation() throws Exception {
    PolicyHarness h = tiered();
    PolicyException e =
        assertThrows(
            PolicyException.class,
            () -> h.allocate("pa", "c0", 1000, Map.of(BALLOON, "any", MEMORY_TYPE, "dram,fast")));
    assertEquals(
        "annotation memory-type.resource-policy.nri.io: invalid value \"dram,fast\": expected a"
            + " comma-separated list of dram, pmem, hbm, mixed",
        e.getMessage());
    PolicyHarness n4 = new PolicyHarness(N4C16, TYPES, CpuSet.of(0));
    e =
        assertThrows(
            PolicyException.class,
            () ->
                n4.allocate(
                    "pa",
                    "c0",
                    1000,
                    Map.of(BALLOON, "any", "memory-type.cri-resource-manager.intel.com", "pmem")));
    assertEquals(
        "annotation memory-type.cri-resource-manager.intel.com: invalid value \"pmem\": the node"
            + " has only dram memory",
        e.getMessage());
  }
}
