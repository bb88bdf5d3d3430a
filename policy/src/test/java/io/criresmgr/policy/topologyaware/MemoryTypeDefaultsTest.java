package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Memory types without a {@code memory-type} annotation: DRAM and PMEM, not HBM (as nri-plugins),
 * through the production request derivation. {@code tiered}: CPU nodes 0 and 1 (one per socket),
 * PMEM 2 and 3, HBM 4 and 5, a CXL DRAM expander 6 near socket 0.
 */
class MemoryTypeDefaultsTest {
  private static final String MEMORY_TYPE = "memory-type.resource-policy.nri.io/pod";
  private static final Resources ONE_CPU = new Resources(1000, 1000, 100 * MB, 100 * MB);

  private static Harness harness(SystemTopology t) {
    return Harness.withPreferences(t, Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
  }

  private static Harness tiered() {
    return harness(TopologySpec.builtIn("tiered").topology());
  }

  private static boolean socket0(Harness h, String name) {
    return h.cpus(name).stream().max().orElseThrow() < 8;
  }

  @Test
  void unannotatedContainersGetDramAndPmemButNotHbm() {
    Harness h = tiered();
    h.create("default", "pod0", 2, ONE_CPU);
    for (String c : new String[] {"pod0c0", "pod0c1"}) {
      assertEquals(socket0(h, c) ? CpuSet.of(0, 2, 6) : CpuSet.of(1, 3), h.mems(c), c);
    }
  }

  @Test
  void annotatedHbmIsStillGiven() {
    Harness h = tiered();
    h.create("default", "pod0", 1, ONE_CPU, Map.of(MEMORY_TYPE, "hbm"));
    assertEquals(socket0(h, "pod0c0") ? CpuSet.of(4) : CpuSet.of(5), h.mems("pod0c0"));
    h.create("default", "pod1", 1, ONE_CPU, Map.of(MEMORY_TYPE, "hbm,dram"));
    assertEquals(socket0(h, "pod1c0") ? CpuSet.of(0, 4, 6) : CpuSet.of(1, 5), h.mems("pod1c0"));
    h.create("default", "pod2", 1, ONE_CPU, Map.of(MEMORY_TYPE, "mixed"));
    assertEquals(
        socket0(h, "pod2c0") ? CpuSet.of(0, 2, 4, 6) : CpuSet.of(1, 3, 5), h.mems("pod2c0"));
  }

  @Test
  void aNodeWithDramAndHbmOnlyGivesUnannotatedContainersDram() {
    // two 4-core sockets with 16G DRAM (nodes 0, 1), HBM nodes 2 (socket 0) and 3 (socket 1)
    Harness h =
        harness(
            TopologySpec.parse(
                    "[{\"mem\": \"16G\", \"cores\": 4, \"threads\": 1, \"packages\": 2},"
                        + " {\"mem\": \"4G\", \"mem-type\": \"hbm\", \"packages\": 2}]")
                .topology());
    h.create("default", "pod0", 1, ONE_CPU);
    assertEquals(socket(h, "pod0c0", 4) ? CpuSet.of(0) : CpuSet.of(1), h.mems("pod0c0"));
    h.create("default", "pod1", 1, ONE_CPU, Map.of(MEMORY_TYPE, "hbm"));
    assertEquals(socket(h, "pod1c0", 4) ? CpuSet.of(2) : CpuSet.of(3), h.mems("pod1c0"));
  }

  @Test
  void aDramOnlyNodeGivesDram() {
    Harness h = harness(Topologies.n4c16());
    h.create("default", "pod0", 1, ONE_CPU);
    assertEquals(1, h.mems("pod0c0").size());
  }

  private static boolean socket(Harness h, String name, int cpusPerSocket) {
    return h.cpus(name).stream().max().orElseThrow() < cpusPerSocket;
  }
}
