package io.criresmgr.controllers.cgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupLayoutTest {
  @TempDir Path root;

  @Test
  void v1WithSeparateCpuAndCpuacct() {
    FakeCgroupTree.v1(root);
    CgroupLayout layout = CgroupLayout.detect(root);
    assertEquals(CgroupMode.V1, layout.mode());
    assertEquals(
        Set.of("cpuset", "cpu", "cpuacct", "memory", "blkio"), layout.v1Hierarchies().keySet());
    assertEquals(root.resolve("cpu"), layout.hierarchy("cpu"));
    assertEquals(Optional.empty(), layout.unifiedRoot());
  }

  @Test
  void combinedMountCountsForEachControllerButExactNameWins() throws Exception {
    Files.createDirectories(root.resolve("cpu,cpuacct"));
    Files.createDirectories(root.resolve("cpuacct"));
    CgroupLayout layout = CgroupLayout.detect(root);
    assertEquals(root.resolve("cpu,cpuacct"), layout.hierarchy("cpu"));
    assertEquals(root.resolve("cpuacct"), layout.hierarchy("cpuacct"));
  }

  @Test
  void v2AtTheRoot() {
    FakeCgroupTree.v2(root, "cpuset cpu io memory pids");
    CgroupLayout layout = CgroupLayout.detect(root);
    assertEquals(CgroupMode.V2, layout.mode());
    assertEquals(Optional.of(root), layout.unifiedRoot());
    assertEquals(Set.of("cpuset", "cpu", "io", "memory", "pids"), layout.unifiedControllers());
    assertEquals(root, layout.hierarchy("memory"));
  }

  @Test
  void hybridLikeThisMachine() {
    FakeCgroupTree.hybrid(root, "");
    CgroupLayout layout = CgroupLayout.detect(root);
    assertEquals(CgroupMode.HYBRID, layout.mode());
    assertEquals(Optional.of(root.resolve("unified")), layout.unifiedRoot());
    assertEquals(Set.of(), layout.unifiedControllers());
    assertEquals(root.resolve("memory"), layout.hierarchy("memory"));
  }

  @Test
  void hybridUsesUnifiedForAControllerOnlyEnabledThere() {
    FakeCgroupTree.hybrid(root, "io");
    assertEquals(root.resolve("unified"), CgroupLayout.detect(root).hierarchy("io"));
  }

  @Test
  void unmountedControllerIsNamed() {
    FakeCgroupTree.v1(root);
    CgroupException e =
        assertThrows(CgroupException.class, () -> CgroupLayout.detect(root).hierarchy("rdma"));
    assertEquals(
        "cgroup controller rdma is not mounted under "
            + root
            + " (V1, v1 hierarchies: [blkio, cpu, cpuacct, cpuset, memory])",
        e.getMessage());
  }

  @Test
  void nothingRecognizableNamesTheRoot() throws Exception {
    Files.createDirectories(root.resolve("something"));
    CgroupException e = assertThrows(CgroupException.class, () -> CgroupLayout.detect(root));
    assertEquals(
        "no cgroup hierarchy recognized under "
            + root
            + ": expected cgroup.controllers (v2) or controller directories such as cpuset,"
            + " cpu, memory (v1)",
        e.getMessage());
  }

  @Test
  void missingRoot() {
    Path missing = root.resolve("nope");
    CgroupException e = assertThrows(CgroupException.class, () -> CgroupLayout.detect(missing));
    assertEquals("cgroup mount " + missing + " is not a directory", e.getMessage());
  }
}
