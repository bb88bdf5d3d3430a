package io.criresmgr.controllers.cgroups;

import static io.criresmgr.controllers.cgroups.CgroupsFixture.container;
import static io.criresmgr.controllers.cgroups.CgroupsFixture.running;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.LogCapture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CgroupsController#start} brings the containers that predate it in line. */
class CgroupsControllerStartTest {
  private static final String PARENT = "/kubepods/burstable/pod1";
  private static final String REL = "kubepods/burstable/pod1";
  private static final Assignment ON_CPU_1 = Assignment.NONE.withCpus(CpuSet.of(1));

  @TempDir Path root;

  private final LogCapture log = LogCapture.of(CgroupsController.class);

  @AfterEach
  void releaseLog() {
    log.close();
  }

  @Test
  void startRepairsDriftAndLogsContainersItCannotReach() {
    FakeCgroupTree tree =
        FakeCgroupTree.v1(root)
            .cgroup(REL + "/c1")
            .cgroup(REL + "/c3")
            .cgroup(REL + "/c4")
            .cgroup(REL + "/c5");
    var node =
        CgroupsFixture.withParent(
            PARENT,
            running("c1", LinuxResources.NONE, "1"), // drifted: the tree holds 0-3
            running("c2", LinuxResources.NONE, "1"), // no cgroup
            container("", ContainerState.CREATING, LinuxResources.NONE, ON_CPU_1, Set.of()),
            container("c3", ContainerState.CREATED, LinuxResources.NONE, ON_CPU_1, Set.of()),
            container("c4", ContainerState.EXITED, LinuxResources.NONE, ON_CPU_1, Set.of()),
            running("c5", LinuxResources.NONE, "0-3")); // in line already
    new CgroupsController().start(new ControllerContext(Path.of(""), root, Map.of(), node));

    assertEquals("1", tree.read("cpuset/" + REL + "/c1/cpuset.cpus"));
    assertEquals("1", tree.read("cpuset/" + REL + "/c3/cpuset.cpus"));
    assertEquals("0-3\n", tree.read("cpuset/" + REL + "/c4/cpuset.cpus"), "exited: untouched");
    assertEquals("0-3\n", tree.read("cpuset/" + REL + "/c5/cpuset.cpus"));
    Path dir = root.resolve("cpuset/" + REL);
    assertEquals(
        List.of(
            "cannot bring the cgroup of pod1-uid:c2 in line: cgroup of container c2 (cgroup parent"
                + " /kubepods/burstable/pod1) not found; tried "
                + String.join(
                    ", ",
                    dir.resolve("c2").toString(),
                    dir.resolve("cri-containerd-c2").toString(),
                    dir.resolve("crio-c2").toString(),
                    dir.resolve("docker-c2").toString())),
        log.messages(Level.WARN));
    assertEquals(
        List.of(
            "restored [cpuset.cpus] in the cgroup of pod1-uid:c1",
            "restored [cpuset.cpus] in the cgroup of pod1-uid:c3",
            "cgroups controller started (V1 under "
                + root
                + "): 2 container(s) restored, 1 failed"),
        log.messages(Level.INFO));
  }
}
