package io.criresmgr.policy.sysfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.FakeSysfs;
import io.criresmgr.policy.HostCpus;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.TmpfsTempDirFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysfsReaderTest {
  private static final String CPU = "sys/devices/system/cpu/";
  private static final String NODE = "sys/devices/system/node/";

  @TempDir(factory = TmpfsTempDirFactory.class)
  Path root;

  private FakeSysfs n4c16() {
    return FakeSysfs.at(root).topology("n4c16");
  }

  private String error() {
    return assertThrows(PolicyException.class, () -> SysfsReader.read(root)).getMessage();
  }

  private String path(String relative) {
    return root.resolve(relative).toString();
  }

  @Test
  void readsTheRealMachine() {
    Path real = Path.of("/");
    // the daemon runs on Linux only: a machine without sysfs fails here, as the daemon would
    assertTrue(Files.exists(real.resolve(HostCpus.CPU_ONLINE)), "no sysfs on this machine");
    SystemTopology t = SysfsReader.read(real);
    assertEquals(HostCpus.read(real).onlineCpus(), t.onlineCpus());
    assertFalse(t.nodes().isEmpty());
    assertFalse(t.packageIds().isEmpty());
    t.cpus().values().forEach(cpu -> assertTrue(t.node(cpu.nodeId()).cpus().contains(cpu.id())));
  }

  @Test
  void cachesAreReadOnceEachAndOnlyWhereDescribed() throws Exception {
    FakeSysfs fake = FakeSysfs.at(root).topology("[{mem: 1G, cores: 4, l3-cores: 2}]");
    fake.write(CPU + "cpu0/cache/index0/level", "1");
    fake.write(CPU + "cpu0/cache/index0/type", "Data");
    fake.write(CPU + "cpu0/cache/index0/shared_cpu_list", "0-1");
    fake.write(CPU + "cpu0/cache/index1/level", "1");
    fake.write(CPU + "cpu0/cache/index1/type", "Instruction");
    fake.write(CPU + "cpu0/cache/index1/shared_cpu_list", "0-1");
    delete(root.resolve(CPU + "cpu7/cache"));
    SystemTopology t = SysfsReader.read(root);
    assertEquals(List.of(CpuSet.range(0, 1)), t.cacheGroups(1));
    assertEquals(List.of(CpuSet.range(0, 3), CpuSet.range(4, 7)), t.cacheGroups(3));
    assertEquals(4 + 2 + 2, t.caches().size());
  }

  @Test
  void malformedCacheFilesAreNamed() throws Exception {
    FakeSysfs fake = FakeSysfs.at(root).topology("[{mem: 1G, cores: 2}]");
    fake.write(CPU + "cpu1/cache/index3/type", "Victim");
    assertEquals(
        path(CPU + "cpu1/cache/index3/type")
            + ": \"Victim\", expected Data, Instruction or Unified",
        error());
    fake.write(CPU + "cpu1/cache/index3/type", "Unified");
    fake.write(CPU + "cpu1/cache/index3/level", "zero");
    assertEquals(
        path(CPU + "cpu1/cache/index3/level") + ": expected an integer, got \"zero\"", error());
    fake.write(CPU + "cpu1/cache/index3/level", "3");
    fake.write(CPU + "cpu1/cache/index3/shared_cpu_list", "8-9");
    assertEquals(
        path(CPU + "cpu1/cache/index3/shared_cpu_list") + ": names no online CPU", error());
  }

  @Test
  void offlineCpusAreSkippedAndIsolatedOnesKept() {
    FakeSysfs.at(root).topology("{groups: [{mem: 1G, cores: 2, cpus-present: 2}], isolcpus: 1}");
    SystemTopology t = SysfsReader.read(root);
    assertEquals(CpuSet.range(0, 3), t.onlineCpus());
    assertEquals(CpuSet.range(4, 5), t.offlineCpus());
    assertEquals(CpuSet.of(1), t.isolatedCpus());
  }

  @Test
  void missingOptionalFilesHaveDefaults() throws Exception {
    n4c16();
    Files.delete(root.resolve(CPU + "isolated"));
    Files.delete(root.resolve(CPU + "present"));
    Files.delete(root.resolve(CPU + "cpu0/online"));
    Files.delete(root.resolve(CPU + "cpu5/topology/die_id"));
    Files.delete(root.resolve(NODE + "has_normal_memory"));
    Files.delete(root.resolve(CPU + "cpu9/node2"));
    SystemTopology t = SysfsReader.read(root);
    assertEquals(CpuSet.EMPTY, t.isolatedCpus());
    assertEquals(CpuSet.range(0, 15), t.presentCpus());
    assertEquals(0, t.cpu(5).dieId());
    assertEquals(2, t.cpu(9).nodeId());
    assertTrue(t.node(3).normalMemory());
  }

  @Test
  void withoutNumaThereIsOneNodeWithTheMemoryOfProcMeminfo() throws Exception {
    FakeSysfs fake = n4c16();
    delete(root.resolve(NODE));
    fake.write("proc/meminfo", "MemTotal:        8000 kB\nMemFree:  10 kB\n");
    SystemTopology t = SysfsReader.read(root);
    assertEquals(List.of(0), List.copyOf(t.nodes().keySet()));
    assertEquals(CpuSet.range(0, 15), t.node(0).cpus());
    assertEquals(8000 * 1024, t.node(0).memoryBytes());
    assertEquals(Map.of(0, 10), t.node(0).distances());
    assertEquals(0, t.cpu(15).nodeId());
  }

  @Test
  void memoryOnlyNodesAreTypedByDaxDevicesFirst() throws Exception {
    FakeSysfs fake = FakeSysfs.at(root).topology("[{mem: 4G, cores: 1}, {mem: 1G}, {mem: 8G}]");
    assertEquals(MemoryType.HBM, SysfsReader.read(root).node(1).memoryType());
    assertEquals(MemoryType.PMEM, SysfsReader.read(root).node(2).memoryType());
    // a kernel's CXL region (cxl_test names it so), and an NVDIMM bus
    fake.write("sys/devices/platform/cxl_acpi.0/root0/region0/dax_region0/dax0.0/target_node", "2");
    fake.write("sys/devices/platform/ACPI0012:00/ndbus0/region0/dax1.0/dax1.0/target_node", "1");
    Path devices = Files.createDirectories(root.resolve("sys/bus/dax/devices"));
    Files.createSymbolicLink(
        devices.resolve("dax0.0"),
        Path.of("../../../devices/platform/cxl_acpi.0/root0/region0/dax_region0/dax0.0"));
    Files.createSymbolicLink(
        devices.resolve("dax1.0"),
        Path.of("../../../devices/platform/ACPI0012:00/ndbus0/region0/dax1.0/dax1.0"));
    SystemTopology t = SysfsReader.read(root);
    assertEquals(MemoryType.PMEM, t.node(1).memoryType());
    assertEquals(MemoryType.DRAM, t.node(2).memoryType());
    assertTrue(t.node(2).far());
  }

  @Test
  void memoryOnlyNodesWithoutMemoryAreLeftOut() {
    n4c16().write(NODE + "node3/cpulist", "").write(CPU + "online", "0-11");
    for (int cpu = 12; cpu < 16; cpu++) {
      FakeSysfs.at(root).write(CPU + "cpu" + cpu + "/online", "0");
    }
    FakeSysfs.at(root).write(NODE + "node3/meminfo", "Node 3 MemTotal: 0 kB\n");
    assertEquals(List.of(0, 1, 2), List.copyOf(SysfsReader.read(root).nodes().keySet()));
  }

  @Test
  void readsCpufreqFiles() {
    n4c16()
        .write(CPU + "cpu1/cpufreq/cpuinfo_min_freq", "400000")
        .write(CPU + "cpu1/cpufreq/base_frequency", "2100000")
        .write(CPU + "cpu1/cpufreq/energy_performance_preference", "default");
    assertEquals(
        new CpuFrequency(400000, 0, 2100000, ""), SysfsReader.read(root).cpu(1).frequency());
  }

  @Test
  void aMissingCpuListAsksForTheHostRoot() {
    assertEquals(path(CPU + "online") + ": missing; is --host-root right?", error());
  }

  @Test
  void malformedFilesAreNamed() throws Exception {
    n4c16().write(CPU + "cpu3/topology/core_id", "one");
    assertEquals(
        path(CPU + "cpu3/topology/core_id") + ": expected an integer, got \"one\"", error());
    n4c16Again().write(CPU + "cpu3/online", "yes");
    assertEquals(path(CPU + "cpu3/online") + ": expected 0 or 1, got \"yes\"", error());
    n4c16Again().write(NODE + "node1/meminfo", "MemTotal: 12 kB");
    assertEquals(
        path(NODE + "node1/meminfo") + ": no line \"Node <N> MemTotal: <size> kB\"", error());
    n4c16Again().write(NODE + "node1/cpulist", "4-x");
    assertEquals(
        path(NODE + "node1/cpulist")
            + ": invalid CPU list \"4-x\": \"4-x\" is not a"
            + " number or a range like 0-3 (expected a list such as 0-3,8)",
        error());
  }

  @Test
  void unreadableFilesAreNamed() throws Exception {
    n4c16();
    Files.delete(root.resolve(CPU + "cpu3/topology/core_id"));
    FakeSysfs.at(root).write(CPU + "cpu3/topology/core_id/oops", "a directory, not a file");
    assertTrue(error().startsWith(path(CPU + "cpu3/topology/core_id") + ": cannot read: "));
  }

  @Test
  void missingRequiredFilesAreNamed() throws Exception {
    n4c16();
    Files.delete(root.resolve(CPU + "cpu7/topology/physical_package_id"));
    assertEquals(path(CPU + "cpu7/topology/physical_package_id") + ": missing", error());
    n4c16Again();
    Files.delete(root.resolve(NODE + "node2/distance"));
    assertEquals(path(NODE + "node2/distance") + ": missing", error());
  }

  @Test
  void aCpuInTwoNodesIsAnError() {
    n4c16().write(NODE + "node1/cpulist", "3-7");
    assertEquals(
        path(NODE + "node1/cpulist") + ": lists cpu3, which node0's cpulist lists too", error());
  }

  @Test
  void aDistanceRowOfTheWrongLengthIsAnError() {
    n4c16().write(NODE + "node2/distance", "21 21 10");
    assertEquals(
        path(NODE + "node2/distance") + ": 3 distances for 4 nodes [0, 1, 2, 3]:" + " \"21 21 10\"",
        error());
  }

  @Test
  void asymmetricDistancesAreAnError() {
    n4c16().write(NODE + "node2/distance", "21 31 10 11");
    assertEquals(
        path(NODE + "node1/distance")
            + ": distance to node2 is 21, but node2/distance"
            + " says 31 back; distances must be symmetric",
        error());
  }

  @Test
  void threadSiblingsMustIncludeTheCpu() {
    n4c16().write(CPU + "cpu6/topology/thread_siblings_list", "4-5");
    assertEquals(
        path(CPU + "cpu6/topology/thread_siblings_list") + ": \"4-5\" lacks cpu6 itself", error());
  }

  @Test
  void aCpuWithoutANodeIsAnError() throws Exception {
    n4c16().write(NODE + "node1/cpulist", "4-5,7");
    Files.delete(root.resolve(CPU + "cpu6/node1"));
    assertEquals(
        path(CPU + "cpu6")
            + ": no node<N> entry, and no node's cpulist lists cpu6;"
            + " which node is it in?",
        error());
  }

  @Test
  void aCpuNodeEntryMustAgreeWithTheNodes() throws Exception {
    n4c16().write(NODE + "node1/cpulist", "4-5,7");
    assertEquals(path(NODE + "node1/cpulist") + ": lacks cpu6, which has a node1 entry", error());
    n4c16Again();
    Files.createSymbolicLink(root.resolve(CPU + "cpu6/node2"), Path.of("../../node/node2"));
    assertEquals(
        path(CPU + "cpu6") + ": has entries for several nodes [1, 2], expected one", error());
  }

  @Test
  void theOnlineListMustAgreeWithTheCpuDirectories() throws Exception {
    n4c16().write(CPU + "online", "0-14");
    assertEquals(
        path(CPU + "online")
            + ": lacks cpu15, but "
            + path(CPU + "cpu15/online")
            + " is 1 or missing",
        error());
    n4c16Again().write(CPU + "online", "0-16");
    assertEquals(path(CPU + "online") + ": lists CPUs without a cpu<N> directory: 16", error());
    n4c16Again().write(CPU + "cpu2/online", "0");
    assertEquals(
        path(CPU + "online") + ": lists cpu2, but " + path(CPU + "cpu2/online") + " says 0",
        error());
  }

  private FakeSysfs n4c16Again() throws IOException {
    delete(root.resolve("sys"));
    return n4c16();
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
