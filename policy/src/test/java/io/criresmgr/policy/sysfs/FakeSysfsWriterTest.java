package io.criresmgr.policy.sysfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.FakeSysfs;
import io.criresmgr.policy.HostCpus;
import io.criresmgr.policy.TmpfsTempDirFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FakeSysfsWriterTest {
  @TempDir(factory = TmpfsTempDirFactory.class)
  Path root;

  /** Asserts that two topologies have the same CPUs, nodes, present and isolated CPUs. */
  static void assertSameTopology(SystemTopology expected, SystemTopology actual) {
    assertEquals(expected.cpus(), actual.cpus());
    assertEquals(expected.nodes(), actual.nodes());
    assertEquals(expected.presentCpus(), actual.presentCpus());
    assertEquals(expected.isolatedCpus(), actual.isolatedCpus());
    assertEquals(expected.caches(), actual.caches());
  }

  private String file(String relative) throws Exception {
    return Files.readString(root.resolve(relative));
  }

  @ParameterizedTest
  @CsvSource({
    // name, CPUs, nodes, packages, DRAM nodes, PMEM nodes, HBM nodes, far (CXL) nodes
    "laptop,   8,    1,  1, 0,     '',  '',  ''",
    "n4c16,   16,    4,  2, 0-3,   '',  '',  ''",
    "n4c32,   32,    8,  2, 0-7,   '',  '',  ''",
    "c4pmem4,  4,    8,  4, 0-3,   4-7, '',  ''",
    "n4c128, 128,    4,  2, 0-3,   '',  '',  ''",
    "n8c448, 448,    8,  4, 0-7,   '',  '',  ''",
    "tiered,  16,    7,  2, '0-1,6', 2-3, 4-5, 6",
    "s8c4096, 4096, 64,  8, 0-63,  '',  '',  ''",
    "numaoff, 16,    1,  2, 0,     '',  '',  ''",
    "epyc,    64,    4,  2, 0-3,   '',  '',  ''",
  })
  void everyBuiltInSpecReadsBackAsItsTopology(
      String name,
      int cpus,
      int nodes,
      int packages,
      String dram,
      String pmem,
      String hbm,
      String far) {
    TopologySpec spec = TopologySpec.builtIn(name);
    FakeSysfs.at(root).topology(name);
    SystemTopology read = SysfsReader.read(root);
    assertSameTopology(spec.topology(), read);
    assertEquals(cpus, read.onlineCpus().size());
    assertEquals(nodes, read.nodes().size());
    assertEquals(packages, read.packageIds().size());
    assertEquals(CpuSet.parse(dram), CpuSet.of(read.nodesOfType(MemoryType.DRAM)));
    assertEquals(CpuSet.parse(pmem), CpuSet.of(read.nodesOfType(MemoryType.PMEM)));
    assertEquals(CpuSet.parse(hbm), CpuSet.of(read.nodesOfType(MemoryType.HBM)));
    assertEquals(
        CpuSet.parse(far),
        CpuSet.of(read.nodes().values().stream().filter(NumaNode::far).map(NumaNode::id).toList()));
    assertEquals(
        new HostCpus(read.onlineCpus(), CpuSet.of(read.nodes().keySet())), HostCpus.read(root));
  }

  @Test
  void writesTheFilesOfARealTree() throws Exception {
    FakeSysfs.at(root)
        .topology(
            "{groups: [{mem: 2G, cores: 2, cpus-present: 2,"
                + " cpufreq: {min: 800000, max: 3500000, base: 2000000, epp: balance_power}},"
                + " {mem: 4G, mem-type: pmem}, {mem: 1G}], isolcpus: 3}");
    assertEquals("0-3\n", file("sys/devices/system/cpu/online"));
    assertEquals("0-5\n", file("sys/devices/system/cpu/present"));
    assertEquals("0-5\n", file("sys/devices/system/cpu/possible"));
    assertEquals("4-5\n", file("sys/devices/system/cpu/offline"));
    assertEquals("3\n", file("sys/devices/system/cpu/isolated"));
    assertEquals("0\n", file("sys/devices/system/cpu/cpu5/online"));
    assertEquals("2-3\n", file("sys/devices/system/cpu/cpu3/topology/thread_siblings_list"));
    assertEquals("1\n", file("sys/devices/system/cpu/cpu3/topology/core_id"));
    assertEquals(
        Path.of("../../node/node0"),
        Files.readSymbolicLink(root.resolve("sys/devices/system/cpu/cpu3/node0")));
    assertEquals("3500000\n", file("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"));
    assertEquals(
        "balance_power\n",
        file("sys/devices/system/cpu/cpu0/cpufreq/energy_performance_preference"));
    assertEquals("0-2\n", file("sys/devices/system/node/online"));
    assertEquals("0-2\n", file("sys/devices/system/node/has_memory"));
    assertEquals("0\n", file("sys/devices/system/node/has_cpu"));
    assertEquals("21 10 21\n", file("sys/devices/system/node/node1/distance"));
    assertEquals("\n", file("sys/devices/system/node/node2/cpulist"));
    assertEquals(
        List.of(
            "Node 1 MemTotal:        4194304 kB",
            "Node 1 MemFree:         4194304 kB",
            "Node 1 MemUsed:               0 kB"),
        Files.readAllLines(root.resolve("sys/devices/system/node/node1/meminfo")));
    Path dax = root.resolve("sys/bus/dax/devices/dax0.0");
    assertEquals("1\n", Files.readString(dax.resolve("target_node")));
    assertEquals(
        root.resolve("sys/devices/platform/ACPI0012:00/ndbus0/region0/dax0.0/dax0.0").toRealPath(),
        dax.toRealPath());
  }

  @Test
  void writesL2AndL3CachesAsIndex2AndIndex3() throws Exception {
    FakeSysfs.at(root).topology("[{mem: 1G, cores: 4, nodes: 2, l3-cores: 2}]");
    String cache = "sys/devices/system/cpu/cpu5/cache/";
    assertEquals("2\n", file(cache + "index2/level"));
    assertEquals("Unified\n", file(cache + "index2/type"));
    assertEquals("4-5\n", file(cache + "index2/shared_cpu_list"));
    assertEquals("3\n", file(cache + "index3/level"));
    assertEquals("4-7\n", file(cache + "index3/shared_cpu_list"));
    SystemTopology read = SysfsReader.read(root);
    assertEquals(
        List.of(CpuSet.range(0, 3), CpuSet.range(4, 7), CpuSet.range(8, 11), CpuSet.range(12, 15)),
        read.cacheGroups(3));
    assertEquals(8, read.cacheGroups(2).size());
  }

  @Test
  void l2CoresShareAnL2CacheAmongConsecutiveCores() throws Exception {
    FakeSysfs.at(root).topology("[{mem: 1G, cores: 4, nodes: 2, l2-cores: 2}]");
    assertEquals("4-7\n", file("sys/devices/system/cpu/cpu5/cache/index2/shared_cpu_list"));
    assertEquals("0-15\n", file("sys/devices/system/cpu/cpu5/cache/index3/shared_cpu_list"));
    assertEquals(
        List.of(CpuSet.range(0, 3), CpuSet.range(4, 7), CpuSet.range(8, 11), CpuSet.range(12, 15)),
        SysfsReader.read(root).cacheGroups(2));
  }

  @Test
  void withoutL3CoresAnL3CacheCoversADie() {
    SystemTopology t = TopologySpec.parse("[{mem: 1G, cores: 2, nodes: 2, dies: 2}]").topology();
    assertEquals(List.of(CpuSet.range(0, 7), CpuSet.range(8, 15)), t.cacheGroups(3));
  }

  @Test
  void writesHybridCoreLists() throws Exception {
    FakeSysfs.at(root)
        .topology(
            "[{mem: 8G, cores: 2, core-type: performance},"
                + " {mem: 8G, cores: 4, threads: 1, core-type: efficient}]");
    assertEquals("0-3\n", file("sys/devices/cpu_core/cpus"));
    assertEquals("4-7\n", file("sys/devices/cpu_atom/cpus"));
    SystemTopology t = SysfsReader.read(root);
    assertEquals(CoreType.PERFORMANCE, t.cpu(3).coreType());
    assertEquals(CoreType.EFFICIENT, t.cpu(4).coreType());
    assertEquals(CpuSet.of(7), t.cpu(7).threads());
  }

  @Test
  void refusesToWriteOverAnExistingTree() {
    FakeSysfs.at(root).cpusOnline("0-1");
    assertEquals(
        root.resolve("sys/devices/system/cpu")
            + ": exists; write a fake sysfs into an empty"
            + " directory",
        assertThrows(IllegalStateException.class, () -> FakeSysfs.at(root).topology("laptop"))
            .getMessage());
  }
}
