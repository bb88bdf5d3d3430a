package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What topology-aware exports to /.cri-resmgr/resources.sh for each kind of grant. */
class ExportedDataTest {
  private static Map<String, String> exported(Harness h, String name) {
    List<Map<String, String>> one =
        h.policy.exportedResources(List.of(h.byName(name)), h.node.cache());
    assertEquals(1, one.size(), "one entry per container asked for");
    return one.get(0);
  }

  @Test
  void manyContainersAtOnceGetWhatEachGetsAlone() {
    // more distinct shapes than are compared field by field, interleaved with shared ones
    Harness h = new Harness(Topologies.n4c16(CpuSet.EMPTY), Map.of(), "750m");
    for (int i = 0; i < 11; i++) {
      h.guaranteed("g" + i, 1, 1000, 10 * MB);
      h.create("default", "s" + i, 1, new Resources(100, 400, 10 * MB, 20 * MB));
    }
    List<Container> all = h.node.cache().containers();
    List<Map<String, String>> together = h.policy.exportedResources(all, h.node.cache());
    assertEquals(all.size(), together.size());
    for (int i = 0; i < all.size(); i++) {
      Container c = all.get(i);
      assertEquals(exported(h, c.name()), together.get(i), c.name());
    }
    long distinct = together.stream().distinct().count();
    assertTrue(distinct > 8, distinct + " distinct data");
  }

  @Test
  void sharedExclusiveAndIsolatedCpusAreNamedApart() {
    Harness h = new Harness(Topologies.n4c16(CpuSet.of(8, 9)), Map.of(), "750m");
    h.requests.cpu("pod0c0", c -> SimpleRequests.cpu(CpuKind.NORMAL, 2, 500, true));
    h.guaranteed("pod0", 1, 2500, 100 * MB);
    assertEquals(CpuSet.range(8, 11), h.cpus("pod0c0"));
    assertEquals(
        Map.of("ISOLATED_CPUS", "8-9", "SHARED_CPUS", "10-11", "ALL_MEMS", "2", "DRAM_MEMS", "2"),
        exported(h, "pod0c0"));

    h.guaranteed("pod1", 1, 2000, 100 * MB);
    CpuSet exclusive = h.cpus("pod1c0");
    Map<String, String> data = exported(h, "pod1c0");
    assertEquals(exclusive.toString(), data.get("EXCLUSIVE_CPUS"), data.toString());
    assertEquals(
        List.of("ALL_MEMS", "DRAM_MEMS", "EXCLUSIVE_CPUS"),
        List.copyOf(data.keySet()),
        "no shares");
  }

  @Test
  void bestEffortAndReservedContainersNameTheCpusTheyShare() {
    Harness h = new Harness(Topologies.n4c16(CpuSet.EMPTY), Map.of(), "750m");
    h.create("default", "be", 1, new Resources(0, 0, 0, 0));
    assertEquals(h.cpus("bec0").toString(), exported(h, "bec0").get("SHARED_CPUS"));
    h.create("kube-system", "sys", 1, new Resources(100, 100, 10 * MB, 10 * MB));
    assertEquals(h.cpus("sysc0").toString(), exported(h, "sysc0").get("SHARED_CPUS"));
  }

  @Test
  void memoryNodesAreListedByType() {
    Harness h = new Harness(Topologies.c4pmem4(), Map.of(), "750m");
    h.requests.memory(
        "pod0c0", m -> SimpleRequests.types(m, EnumSet.of(MemoryType.PMEM, MemoryType.DRAM)));
    h.guaranteed("pod0", 1, 500, 250 * MB);
    CpuSet mems = h.mems("pod0c0"); // c4pmem4: DRAM nodes 0-3, PMEM nodes 4-7
    CpuSet dram = mems.intersection(CpuSet.range(0, 3));
    CpuSet pmem = mems.intersection(CpuSet.range(4, 7));
    assertEquals(false, dram.isEmpty() || pmem.isEmpty(), mems.toString());
    Map<String, String> data = exported(h, "pod0c0");
    assertEquals(ids(mems), data.get("ALL_MEMS"));
    assertEquals(ids(dram), data.get("DRAM_MEMS"));
    assertEquals(ids(pmem), data.get("PMEM_MEMS"));
  }

  private static String ids(CpuSet nodes) {
    return String.join(",", nodes.stream().mapToObj(Integer::toString).toList());
  }

  @Test
  void aReleasedContainerIsLeftOut() {
    Harness h = new Harness(Topologies.n4c16(CpuSet.EMPTY), Map.of(), "750m");
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    io.criresmgr.cache.Container gone = h.byName("pod0c0");
    h.delete("pod0");
    assertEquals(List.of(Map.of()), h.policy.exportedResources(List.of(gone), h.node.cache()));
  }
}
