package io.criresmgr.controllers.cgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerCgroupsTest {
  private static final String SLICES =
      "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12_34.slice";

  @TempDir Path root;

  @Test
  void driverFromParentForm() {
    assertEquals(CgroupDriver.CGROUPFS, CgroupDriver.of("/kubepods/burstable/pod1"));
    assertEquals(CgroupDriver.SYSTEMD, CgroupDriver.of("kubepods-burstable-pod1.slice"));
    assertEquals(CgroupDriver.SYSTEMD, CgroupDriver.of("/kubepods.slice/kubepods-pod1.slice/"));
  }

  @Test
  void cgroupfsCandidates() {
    assertEquals(
        List.of(
            "kubepods/burstable/pod1/c1",
            "kubepods/burstable/pod1/cri-containerd-c1",
            "kubepods/burstable/pod1/crio-c1",
            "kubepods/burstable/pod1/docker-c1"),
        ContainerCgroups.candidates("/kubepods/burstable/pod1", "c1"));
  }

  @Test
  void systemdCandidatesExpandTheSlice() {
    assertEquals(
        List.of(
            SLICES + "/cri-containerd-c1.scope",
            SLICES + "/crio-c1.scope",
            SLICES + "/docker-c1.scope"),
        ContainerCgroups.candidates("kubepods-burstable-pod12_34.slice", "c1"));
    assertEquals(
        SLICES + "/cri-containerd-c1.scope",
        ContainerCgroups.candidates("/" + SLICES + "/", "c1").get(0));
  }

  @Test
  void sliceExpansion() {
    assertEquals("", SystemdSlice.expand("-.slice"));
    assertEquals("kubepods.slice", SystemdSlice.expand("kubepods.slice"));
    CgroupException e =
        assertThrows(CgroupException.class, () -> SystemdSlice.expand("kubepods--x.slice"));
    assertEquals(
        "invalid systemd slice \"kubepods--x.slice\": empty dash-separated component",
        e.getMessage());
  }

  @Test
  void findsCgroupfsContainerOnV1() {
    FakeCgroupTree.v1(root).cgroup("kubepods/burstable/pod1/c1");
    CgroupLayout layout = CgroupLayout.detect(root);
    ContainerCgroup cg = ContainerCgroups.find(layout, "/kubepods/burstable/pod1", "c1");
    assertEquals(Path.of("kubepods/burstable/pod1/c1"), cg.relative());
    assertEquals(root.resolve("memory/kubepods/burstable/pod1/c1"), cg.dir("memory"));
    assertEquals(Optional.empty(), cg.unifiedDir());
  }

  @Test
  void findsTheExistingSystemdScopeAmongCandidates() {
    FakeCgroupTree.v2(root, "cpu memory").cgroup(SLICES + "/crio-c1.scope");
    CgroupLayout layout = CgroupLayout.detect(root);
    ContainerCgroup cg = ContainerCgroups.find(layout, "kubepods-burstable-pod12_34.slice", "c1");
    assertEquals(root.resolve(SLICES + "/crio-c1.scope"), cg.dir("memory"));
    assertEquals(Optional.of(root.resolve(SLICES + "/crio-c1.scope")), cg.unifiedDir());
  }

  @Test
  void hybridUsesV1ForControllersAndUnifiedForV2Files() {
    FakeCgroupTree.hybrid(root, "").cgroup("kubepods/pod1/c1");
    ContainerCgroup cg = ContainerCgroups.find(CgroupLayout.detect(root), "/kubepods/pod1", "c1");
    assertEquals(root.resolve("cpuset/kubepods/pod1/c1"), cg.dir("cpuset"));
    assertEquals(Optional.of(root.resolve("unified/kubepods/pod1/c1")), cg.unifiedDir());
  }

  @Test
  void notFoundNamesEveryCandidate() {
    FakeCgroupTree.v1(root);
    CgroupLayout layout = CgroupLayout.detect(root);
    CgroupException e =
        assertThrows(
            CgroupException.class,
            () -> ContainerCgroups.find(layout, "kubepods-pod1.slice", "c1"));
    Path base = root.resolve("cpuset/kubepods.slice/kubepods-pod1.slice");
    assertEquals(
        "cgroup of container c1 (cgroup parent kubepods-pod1.slice) not found; tried "
            + base.resolve("cri-containerd-c1.scope")
            + ", "
            + base.resolve("crio-c1.scope")
            + ", "
            + base.resolve("docker-c1.scope"),
        e.getMessage());
  }

  @Test
  void malformedArguments() {
    CgroupException id =
        assertThrows(CgroupException.class, () -> ContainerCgroups.candidates("/kubepods", "a/b"));
    assertEquals(
        "invalid container id \"a/b\": expected a non-empty name without '/'", id.getMessage());
    CgroupException parent =
        assertThrows(
            CgroupException.class, () -> ContainerCgroups.candidates("/kubepods/../etc", "c1"));
    assertEquals(
        "invalid cgroup parent \"/kubepods/../etc\": empty, '.' or '..' path component",
        parent.getMessage());
  }
}
