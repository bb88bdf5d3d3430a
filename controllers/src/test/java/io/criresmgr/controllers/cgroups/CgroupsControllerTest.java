package io.criresmgr.controllers.cgroups;

import static io.criresmgr.controllers.cgroups.CgroupsFixture.container;
import static io.criresmgr.controllers.cgroups.CgroupsFixture.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.NodeView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hooks on fake v1, v2 and hybrid trees, as the pipeline calls them. */
class CgroupsControllerTest {
  private static final String PARENT = "/kubepods/burstable/pod1";
  private static final String CG = "kubepods/burstable/pod1/c1";
  private static final long GIB = 1L << 30;
  private static final LinuxResources REQUESTED =
      new LinuxResources(0, 50_000, 512, GIB, "0-3", "", Map.of());

  @TempDir Path root;

  private final CgroupsController controller = new CgroupsController();

  private void start(NodeView node) {
    controller.start(new ControllerContext(Path.of(""), root, Map.of(), node));
  }

  @Test
  void postStartWritesTheEffectiveResourcesIntoV1Files() {
    FakeCgroupTree tree = FakeCgroupTree.v1(root).cgroup(CG);
    Assignment assignment = Assignment.of(CpuSet.of(0, 1, 3), CpuSet.of(1));
    Container c1 = container("c1", ContainerState.RUNNING, REQUESTED, assignment, Set.of());
    start(CgroupsFixture.withParent(PARENT));
    controller.postStart(c1);
    assertEquals("0-1,3", tree.read("cpuset/" + CG + "/cpuset.cpus"));
    assertEquals("1", tree.read("cpuset/" + CG + "/cpuset.mems"));
    assertEquals("512", tree.read("cpu/" + CG + "/cpu.shares"));
    assertEquals("50000", tree.read("cpu/" + CG + "/cpu.cfs_quota_us"));
    assertEquals("100000\n", tree.read("cpu/" + CG + "/cpu.cfs_period_us"), "already default");
    assertEquals("1073741824", tree.read("memory/" + CG + "/memory.limit_in_bytes"));
  }

  @Test
  void nothingIsWrittenWhenTheCgroupAlreadyHoldsTheValues() throws IOException {
    FakeCgroupTree.v1(root).cgroup(CG);
    Container c1 = running("c1", REQUESTED, "2");
    start(CgroupsFixture.withParent(PARENT));
    controller.postStart(c1);
    FileTime old = FileTime.fromMillis(1_000_000);
    List<Path> files = files(root);
    for (Path f : files) {
      Files.setLastModifiedTime(f, old);
    }
    controller.postStart(c1);
    controller.postUpdate(c1.withAssignment(c1.assignment(), Set.of(CgroupsController.NAME)));
    for (Path f : files) {
      assertEquals(old, Files.getLastModifiedTime(f), f::toString);
    }
  }

  @Test
  void v2FilesOfASystemdScope() {
    String scope =
        "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/"
            + "cri-containerd-c1.scope";
    FakeCgroupTree tree = FakeCgroupTree.v2(root, "cpuset cpu memory").cgroup(scope);
    LinuxResources requested =
        new LinuxResources(200_000, 100_000, 2048, GIB / 2, "", "", Map.of("memory.swap.max", "0"));
    Assignment assignment =
        Assignment.NONE.withCpus(CpuSet.of(2, 3)).withUnified(Map.of("memory.high", "402653184"));
    Container c1 = container("c1", ContainerState.RUNNING, requested, assignment, Set.of());
    start(CgroupsFixture.withParent("kubepods-burstable-pod1.slice"));
    controller.postStart(c1);
    assertEquals("2-3", tree.read(scope + "/cpuset.cpus"));
    assertEquals("\n", tree.read(scope + "/cpuset.mems"), "not set, left alone");
    assertEquals("79", tree.read(scope + "/cpu.weight"));
    assertEquals("100000 200000", tree.read(scope + "/cpu.max"));
    assertEquals("536870912", tree.read(scope + "/memory.max"));
    assertEquals("402653184", tree.read(scope + "/memory.high"));
    assertEquals("0", tree.read(scope + "/memory.swap.max"));
  }

  @Test
  void unifiedFilesOnAHybridHostWithoutTheControllerFailAfterTheOtherWrites() {
    FakeCgroupTree tree = FakeCgroupTree.hybrid(root, "hugetlb").cgroup(CG);
    Assignment assignment =
        Assignment.NONE
            .withCpus(CpuSet.of(1))
            .withUnified(Map.of("memory.high", "1000", "memory.swap.max", "max"));
    Container c1 = container("c1", ContainerState.RUNNING, REQUESTED, assignment, Set.of());
    start(CgroupsFixture.withParent(PARENT));
    ControllerException e = assertThrows(ControllerException.class, () -> controller.postStart(c1));
    String hybrid = " does not exist on this hybrid host: controller memory is not enabled in the";
    Path unified = root.resolve("unified");
    assertEquals(
        "cgroup v2 file memory.high"
            + hybrid
            + " unified hierarchy "
            + unified
            + "; cgroup v2 file memory.swap.max"
            + hybrid
            + " unified hierarchy "
            + unified,
        e.getMessage());
    assertEquals("1", tree.read("cpuset/" + CG + "/cpuset.cpus"));
    assertEquals("1073741824", tree.read("memory/" + CG + "/memory.limit_in_bytes"));
  }

  @Test
  void postUpdateWritesOnlyWhenThisControllerIsPending() {
    FakeCgroupTree tree = FakeCgroupTree.v1(root).cgroup(CG);
    Container c1 = running("c1", LinuxResources.NONE, "1");
    start(CgroupsFixture.withParent(PARENT));
    controller.postUpdate(c1);
    controller.postUpdate(c1.withAssignment(c1.assignment(), Set.of("cri")));
    assertEquals("0-3\n", tree.read("cpuset/" + CG + "/cpuset.cpus"));
    controller.postUpdate(c1.withAssignment(c1.assignment(), Set.of("cgroups", "cri")));
    assertEquals("1", tree.read("cpuset/" + CG + "/cpuset.cpus"));
  }

  @Test
  void aMissingCgroupNamesEveryPathTried() {
    FakeCgroupTree.v1(root);
    start(CgroupsFixture.withParent(PARENT));
    Container c1 = running("c1", REQUESTED, "1");
    ControllerException e = assertThrows(ControllerException.class, () -> controller.postStart(c1));
    Path dir = root.resolve("cpuset/kubepods/burstable/pod1");
    assertEquals(
        "cgroup of container c1 (cgroup parent /kubepods/burstable/pod1) not found; tried "
            + String.join(
                ", ",
                dir.resolve("c1").toString(),
                dir.resolve("cri-containerd-c1").toString(),
                dir.resolve("crio-c1").toString(),
                dir.resolve("docker-c1").toString()),
        e.getMessage());
  }

  /**
   * containerd creates a container's cgroup at StartContainer; an assignment change right after
   * CreateContainer must not report the missing cgroup (it did, as a warning per container).
   */
  @Test
  void aCreatedContainerWithoutCgroupYetIsLeftToPostStart() {
    FakeCgroupTree tree = FakeCgroupTree.v2(root, "cpuset cpu memory");
    start(CgroupsFixture.withParent(PARENT));
    Assignment pinned = Assignment.NONE.withCpus(CpuSet.parse("1"));
    Container created =
        container("c1", ContainerState.CREATED, REQUESTED, pinned, Set.of("cgroups"));
    controller.postUpdate(created);
    tree.cgroup(CG);
    controller.postStart(running("c1", REQUESTED, "1"));
    assertEquals("1", tree.read(CG + "/cpuset.cpus"));
    Container gone = running("c2", REQUESTED, "1");
    ControllerException e =
        assertThrows(ControllerException.class, () -> controller.postStart(gone));
    assertTrue(e.getMessage().startsWith("cgroup of container c2 ("), e.getMessage());
  }

  @Test
  void anUnknownPodIsAnError() {
    FakeCgroupTree.v1(root).cgroup(CG);
    start(NodeView.EMPTY);
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> controller.postStart(running("c1", REQUESTED, "1")));
    assertEquals(
        "cannot find the cgroup of container c1: its pod sandbox-1 is not known", e.getMessage());
  }

  @Test
  void startFailsWithoutACgroupHierarchy() throws IOException {
    Path missing = root.resolve("sys/fs/cgroup");
    var context = new ControllerContext(Path.of(""), missing, Map.of());
    ControllerException e =
        assertThrows(ControllerException.class, () -> controller.start(context));
    assertEquals("cgroup mount " + missing + " is not a directory", e.getMessage());
    Files.createDirectories(missing);
    e = assertThrows(ControllerException.class, () -> controller.start(context));
    assertEquals(
        "no cgroup hierarchy recognized under "
            + missing
            + ": expected cgroup.controllers (v2) or controller directories such as cpuset, cpu,"
            + " memory (v1)",
        e.getMessage());
  }

  @Test
  void resolvedCgroupsAreCachedUntilPostStop() {
    String second = "kubepods/burstable/pod1/cri-containerd-c1";
    FakeCgroupTree tree = FakeCgroupTree.v1(root).cgroup(second);
    start(CgroupsFixture.withParent(PARENT));
    Container c1 = running("c1", LinuxResources.NONE, "1");
    controller.postStart(c1);
    tree.cgroup(CG); // now the first candidate exists too
    Assignment moved = Assignment.NONE.withCpus(CpuSet.of(2));
    controller.postUpdate(c1.withAssignment(moved, Set.of(CgroupsController.NAME)));
    assertEquals("2", tree.read("cpuset/" + second + "/cpuset.cpus"), "the cached cgroup");
    assertEquals("0-3\n", tree.read("cpuset/" + CG + "/cpuset.cpus"));
    controller.postStop(c1);
    controller.postStart(c1);
    assertEquals("1", tree.read("cpuset/" + CG + "/cpuset.cpus"), "probed again");
  }

  static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }
}
