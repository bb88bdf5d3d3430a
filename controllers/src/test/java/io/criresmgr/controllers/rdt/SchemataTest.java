package io.criresmgr.controllers.rdt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemataTest {
  @TempDir Path dir;

  @Test
  void discoversTheTree() throws Exception {
    Resctrl r = Resctrl.discover(FakeResctrl.create(dir));
    assertEquals(new CacheInfo(0x7ff, 2, 16, List.of(0, 1)), r.l3().orElseThrow());
    assertEquals(new MbInfo(10, 10, 8, List.of(0, 1)), r.mb().orElseThrow());
    assertEquals(Optional.empty(), r.l2());
  }

  @Test
  void absentResctrlNamesThePath() {
    Path root = dir.resolve("resctrl");
    assertEquals(
        "resctrl not available: "
            + root
            + "/info does not exist (is resctrl mounted at "
            + root
            + "?)",
        assertThrows(RdtException.class, () -> Resctrl.discover(root)).getMessage());
  }

  @Test
  void referenceExampleSchemata() throws Exception {
    Map<String, List<String>> s =
        Schemata.of(
            RdtConfig.parse(RdtConfigTest.json(RdtConfigTest.EXAMPLE)),
            Resctrl.discover(FakeResctrl.create(dir)));
    assertEquals(
        Map.of(
            "Guaranteed", List.of("L3:0=7f;1=7f", "MB:0=100;1=100"),
            "Burstable", List.of("L3:0=780;1=780", "MB:0=50;1=50"),
            "BestEffort", List.of("L3:0=180;1=180", "MB:0=25;1=25")),
        s);
  }

  @Test
  void perCacheIdMasksAndRanges() throws Exception {
    RdtConfig c =
        RdtConfig.parse(
            RdtConfigTest.json(
                "{\"partitions\": {\"p\": {\"l3Allocation\":"
                    + " {\"all\": \"0-7\", \"1\": \"0x7f0\"}, \"classes\": {\"a\": {\"l3Allocation\": \"50-100%\"}}}}}"));
    // 50-100% of 8 bits is bits 3-7 (goresctrl: (50-1)*8/100 = 3 to (100-1)*8/100 = 7).
    assertEquals(
        Map.of("a", List.of("L3:0=f8;1=780")),
        Schemata.of(c, Resctrl.discover(FakeResctrl.create(dir))));
  }

  @Test
  void hardwareLimitErrors() throws Exception {
    Resctrl r = Resctrl.discover(FakeResctrl.create(dir));
    assertEquals(
        "rdt class a: L3 allocation 0x4: mask 100 has 1 bits, fewer than min_cbm_bits 2",
        error(
            "{\"partitions\": {\"p\": {\"l3Allocation\": \"0x3c0\", \"classes\": {\"a\":"
                + " {\"l3Allocation\": \"0x4\"}}}}}",
            r));
    assertEquals(
        "rdt partitions: L3 allocations of cache id 0 add up to 110%, more than 100%",
        error(
            "{\"partitions\": {\"p\": {\"l3Allocation\": \"60%\"}, \"q\": {\"l3Allocation\": \"50%\"}}}",
            r));
    assertEquals(
        "rdt partition p: L3 allocation 0xf000 for cache id 0 does not fit cbm_mask 7ff",
        error("{\"partitions\": {\"p\": {\"l3Allocation\": \"0xf000\"}}}", r));
    assertEquals(
        "rdt: L2 allocation is configured but not supported by the hardware (set"
            + " rdt.options.l2.optional: true to ignore it)",
        error("{\"partitions\": {\"p\": {\"l2Allocation\": \"50%\"}}}", r));
  }

  @Test
  void writesGroupsIdempotentlyAndAssignsTasks() throws Exception {
    Resctrl r = Resctrl.discover(FakeResctrl.create(dir));
    ResctrlGroups groups = new ResctrlGroups(dir);
    Map<String, List<String>> s =
        Schemata.of(RdtConfig.parse(RdtConfigTest.json(RdtConfigTest.EXAMPLE)), r);
    groups.apply(s);
    Path file = dir.resolve("cri-resmgr.BestEffort/schemata");
    assertEquals("L3:0=180;1=180\nMB:0=25;1=25\n", Files.readString(file));
    // What the kernel shows after the write: every resource, padded; nothing is written again.
    Files.writeString(file, "    L3:0=180;1=180\n    MB:0=25;1=25\n");
    groups.apply(s);
    assertEquals("    L3:0=180;1=180\n    MB:0=25;1=25\n", Files.readString(file));
    Files.writeString(dir.resolve("cri-resmgr.BestEffort/tasks"), "");
    groups.assign("BestEffort", List.of(12L, 34L));
    assertEquals("12\n34\n", Files.readString(dir.resolve("cri-resmgr.BestEffort/tasks")));
    groups.assign("", List.of(5L));
    assertEquals("5\n", Files.readString(dir.resolve("tasks")));
    Path missing = dir.resolve("cri-resmgr.Guaranteed/tasks");
    assertEquals(
        "cannot write pid 7 to " + missing + ": java.nio.file.NoSuchFileException: " + missing,
        assertThrows(RdtException.class, () -> groups.assign("Guaranteed", List.of(7L)))
            .getMessage());
  }

  private static String error(String config, Resctrl r) {
    return assertThrows(
            RdtException.class, () -> Schemata.of(RdtConfig.parse(RdtConfigTest.json(config)), r))
        .getMessage();
  }

  @Test
  void listsAndRemovesOwnGroupsOnly() throws Exception {
    FakeResctrl.create(dir);
    Files.createDirectories(dir.resolve("cri-resmgr.old"));
    Files.createDirectories(dir.resolve("cri-resmgr.keep"));
    Files.createDirectories(dir.resolve("other"));
    ResctrlGroups own = new ResctrlGroups(dir);
    assertEquals(java.util.Set.of("keep", "old"), own.existing());
    assertEquals(
        java.util.Set.of("cri-resmgr.keep", "cri-resmgr.old", "other"),
        new ResctrlGroups(dir, "").existing());
    own.removeExcept(java.util.Set.of("keep"));
    assertEquals(java.util.Set.of("keep"), own.existing());
    assertEquals(true, Files.isDirectory(dir.resolve("other")));
  }

  @Test
  void readsContainerPids() throws Exception {
    FakeResctrl.write(dir.resolve("cg/cgroup.procs"), "41\n42\n");
    assertEquals(List.of(41L, 42L), ResctrlGroups.pids(dir.resolve("cg")));
    FakeResctrl.write(dir.resolve("cg/cgroup.procs"), "x\n");
    assertEquals(
        "cannot read pids from "
            + dir.resolve("cg/cgroup.procs")
            + ": java.lang.NumberFormatException: For input string: \"x\"",
        assertThrows(RdtException.class, () -> ResctrlGroups.pids(dir.resolve("cg"))).getMessage());
  }

  @Test
  void malformedSchemataIsNamed() throws Exception {
    FakeResctrl.create(dir);
    Files.writeString(dir.resolve("schemata"), "L3:x=7ff\n");
    assertEquals(
        "resctrl schemata: malformed line \"L3:x=7ff\"",
        assertThrows(RdtException.class, () -> Resctrl.discover(dir)).getMessage());
  }
}
