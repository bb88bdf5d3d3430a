package io.criresmgr.controllers.cgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerCgroupWriterTest {
  private static final String CG = "kubepods/burstable/pod1/c1";

  @TempDir Path root;

  @Test
  void v1Files() {
    FakeCgroupTree tree = FakeCgroupTree.v1(root).cgroup(CG);
    ContainerCgroupWriter w = writer();
    assertTrue(w.setCpusetCpus(CpusetList.parse("3, 0,1")));
    assertTrue(w.setCpusetMems(CpusetList.parse("1")));
    assertTrue(w.setCpuShares(new CpuShares(512)));
    assertTrue(w.setCpuQuota(new CpuQuota(50_000, 200_000)));
    assertTrue(w.setMemoryLimit(1L << 30));
    assertEquals("0-1,3", tree.read("cpuset/" + CG + "/cpuset.cpus"));
    assertEquals("1", tree.read("cpuset/" + CG + "/cpuset.mems"));
    assertEquals("512", tree.read("cpu/" + CG + "/cpu.shares"));
    assertEquals("50000", tree.read("cpu/" + CG + "/cpu.cfs_quota_us"));
    assertEquals("200000", tree.read("cpu/" + CG + "/cpu.cfs_period_us"));
    assertEquals("1073741824", tree.read("memory/" + CG + "/memory.limit_in_bytes"));
  }

  @Test
  void v1UnlimitedAndIdempotence() {
    FakeCgroupTree tree = FakeCgroupTree.v1(root).cgroup(CG);
    ContainerCgroupWriter w = writer();
    assertFalse(w.setCpuQuota(CpuQuota.unlimited()), "the defaults are already there");
    assertFalse(w.setCpusetCpus(CpusetList.parse("0,1,2,3")), "0-3 is already there");
    assertTrue(w.setMemoryLimit(ContainerCgroupWriter.UNLIMITED));
    assertEquals("-1", tree.read("memory/" + CG + "/memory.limit_in_bytes"));
    assertFalse(w.setMemoryLimit(ContainerCgroupWriter.UNLIMITED));
  }

  @Test
  void memoryValuesTheKernelShowsRoundedDownToPagesAreNotWrittenAgain() throws Exception {
    FakeCgroupTree tree = FakeCgroupTree.v2(root, "cpuset cpu memory").cgroup(CG);
    Files.writeString(root.resolve(CG + "/memory.high"), "49999872\n");
    Files.writeString(root.resolve(CG + "/memory.max"), "99999744\n");
    Files.writeString(root.resolve(CG + "/memory.swap.max"), "104857600\n");
    ContainerCgroup cgroup =
        ContainerCgroups.find(CgroupLayout.detect(root), "/kubepods/burstable/pod1", "c1");
    ContainerCgroupWriter w = new ContainerCgroupWriter(cgroup, new CgroupWriter(), 4096);
    assertFalse(w.setUnified("memory.high", "50000000"), "12207 pages either way");
    assertFalse(w.setMemoryLimit(100_000_000));
    assertFalse(w.setUnified("memory.swap.max", "100M"), "the kernel's suffixes");
    assertTrue(w.setUnified("memory.high", "50003968"), "one page more");
    assertEquals("50003968", tree.read(CG + "/memory.high"));
    assertTrue(w.setUnified("memory.swap.max", "100"), "not a multiple of 4096, and 0 pages");
    ContainerCgroupWriter w64k = new ContainerCgroupWriter(cgroup, new CgroupWriter(), 65536);
    Files.writeString(root.resolve(CG + "/memory.high"), "49938432\n");
    assertFalse(w64k.setUnified("memory.high", "50000000"), "762 pages of 64 KiB");
  }

  @Test
  void pageRoundingAppliesToNumbersInMemoryFilesOnly() {
    assertEquals(
        Optional.of("49999872"), PageSize.roundedAsKernelShows("memory.high", "50000000", 4096));
    assertEquals(
        Optional.of("1073741824"), PageSize.roundedAsKernelShows("memory.max", "1G", 4096));
    assertEquals(Optional.empty(), PageSize.roundedAsKernelShows("memory.high", "max", 4096));
    assertEquals(Optional.empty(), PageSize.roundedAsKernelShows("cpu.weight", "50000000", 4096));
    assertEquals(
        Optional.empty(), PageSize.roundedAsKernelShows("memory.max", "9999999999999999E", 4096));
  }

  @Test
  void thePageSizeComesFromTheAuxiliaryVector(@TempDir Path dir) throws Exception {
    ByteBuffer b = ByteBuffer.allocate(48).order(ByteOrder.nativeOrder());
    b.putLong(33).putLong(0x7fff0000L).putLong(6).putLong(16384).putLong(0).putLong(0);
    Path auxv = Files.write(dir.resolve("auxv"), b.array());
    assertEquals(16384, PageSize.fromAuxv(auxv));
    assertEquals(4096, PageSize.fromAuxv(dir.resolve("missing")));
    assertTrue(PageSize.host() >= 4096, "this host's: " + PageSize.host());
  }

  @Test
  void v1QuotaIsWrittenFirstWhenThePeriodIsRefused() throws Exception {
    FakeCgroupTree tree = FakeCgroupTree.v1(root).cgroup(CG);
    Path period = root.resolve("cpu/" + CG + "/cpu.cfs_period_us");
    Files.delete(period);
    Files.createDirectory(period); // every write to it fails with EISDIR
    CgroupException e =
        assertThrows(
            CgroupException.class, () -> writer().setCpuQuota(new CpuQuota(20_000, 50_000)));
    assertEquals("cannot write \"50000\" to " + period + ": Is a directory", e.getMessage());
    assertEquals("20000", tree.read("cpu/" + CG + "/cpu.cfs_quota_us"));
  }

  @Test
  void v2Files() {
    FakeCgroupTree tree = FakeCgroupTree.v2(root, "cpuset cpu memory").cgroup(CG);
    ContainerCgroupWriter w = writer();
    assertTrue(w.setCpusetCpus(CpusetList.parse("2-3")));
    assertTrue(w.setCpuShares(new CpuShares(2048)));
    assertTrue(w.setCpuQuota(new CpuQuota(50_000, 100_000)));
    assertTrue(w.setMemoryLimit(1L << 30));
    assertTrue(w.setUnified("memory.high", "805306368"));
    assertFalse(w.setUnified("memory.swap.max", "max"));
    assertEquals("2-3", tree.read(CG + "/cpuset.cpus"));
    assertEquals("79", tree.read(CG + "/cpu.weight"));
    assertEquals("50000 100000", tree.read(CG + "/cpu.max"));
    assertEquals("1073741824", tree.read(CG + "/memory.max"));
    assertEquals("805306368", tree.read(CG + "/memory.high"));
    assertTrue(w.setCpuQuota(CpuQuota.unlimited()));
    assertTrue(w.setMemoryLimit(ContainerCgroupWriter.UNLIMITED));
    assertEquals("max 100000", tree.read(CG + "/cpu.max"));
    assertEquals("max", tree.read(CG + "/memory.max"));
  }

  @Test
  void aWeightOfEitherRuntimeConversionIsLeftAlone() throws Exception {
    FakeCgroupTree tree = FakeCgroupTree.v2(root, "cpu").cgroup(CG);
    ContainerCgroupWriter w = writer();
    java.nio.file.Files.writeString(root.resolve(CG + "/cpu.weight"), "100\n");
    assertFalse(w.setCpuShares(new CpuShares(1024)), "a newer runtime's weight for 1024 shares");
    assertEquals("100\n", tree.read(CG + "/cpu.weight"));
    java.nio.file.Files.writeString(root.resolve(CG + "/cpu.weight"), "77\n");
    assertTrue(w.setCpuShares(new CpuShares(1024)));
    assertEquals("39", tree.read(CG + "/cpu.weight"));
  }

  /** 2 shares (what kubelet gives BestEffort) are weight 1 by both conversions. */
  @Test
  void theSmallestSharesWhereBothConversionsAgree() throws Exception {
    FakeCgroupTree tree = FakeCgroupTree.v2(root, "cpu").cgroup(CG);
    ContainerCgroupWriter w = writer();
    assertTrue(w.setCpuShares(new CpuShares(2)));
    assertEquals("1", tree.read(CG + "/cpu.weight"));
    assertFalse(w.setCpuShares(new CpuShares(2)));
    assertTrue(w.setCpuShares(new CpuShares(CpuShares.MAX)));
    assertEquals("10000", tree.read(CG + "/cpu.weight"));
  }

  @Test
  void hybridWritesV1FilesAndRefusesUnifiedFilesOfV1Controllers() {
    FakeCgroupTree tree = FakeCgroupTree.hybrid(root, "").cgroup(CG);
    ContainerCgroupWriter w = writer();
    assertTrue(w.setCpuShares(new CpuShares(2)));
    assertEquals("2", tree.read("cpu/" + CG + "/cpu.shares"));
    CgroupException e =
        assertThrows(CgroupException.class, () -> w.setUnified("memory.high", "1000"));
    assertEquals(
        "cgroup v2 file memory.high does not exist on this hybrid host: controller memory is not"
            + " enabled in the unified hierarchy "
            + root.resolve("unified"),
        e.getMessage());
  }

  @Test
  void v1RefusesUnifiedFiles() {
    FakeCgroupTree.v1(root).cgroup(CG);
    CgroupException e =
        assertThrows(CgroupException.class, () -> writer().setUnified("memory.swap.max", "max"));
    assertEquals(
        "cgroup v2 file memory.swap.max does not exist on this host: no unified (v2) hierarchy"
            + " under "
            + root
            + " (cgroup v1 only)",
        e.getMessage());
  }

  @Test
  void invalidValues() {
    FakeCgroupTree.v2(root, "memory").cgroup(CG);
    ContainerCgroupWriter w = writer();
    CgroupException limit = assertThrows(CgroupException.class, () -> w.setMemoryLimit(0));
    assertEquals(
        "invalid memory limit 0: expected more than 0 bytes, or -1 (unlimited)",
        limit.getMessage());
    CgroupException name =
        assertThrows(CgroupException.class, () -> w.setUnified("../memory.max", "1"));
    assertEquals(
        "invalid cgroup v2 file name \"../memory.max\": expected <controller>.<name>",
        name.getMessage());
  }

  @Test
  void missingFileNamesFileAndValue() {
    FakeCgroupTree.v2(root, "memory").cgroup(CG);
    CgroupException e =
        assertThrows(CgroupException.class, () -> writer().setUnified("memory.low", "1000"));
    assertEquals(
        "cannot write \"1000\" to "
            + root.resolve(CG + "/memory.low")
            + ": No such file or directory",
        e.getMessage());
  }

  private ContainerCgroupWriter writer() {
    ContainerCgroup cg =
        ContainerCgroups.find(CgroupLayout.detect(root), "/kubepods/burstable/pod1", "c1");
    return new ContainerCgroupWriter(cg, new CgroupWriter());
  }
}
