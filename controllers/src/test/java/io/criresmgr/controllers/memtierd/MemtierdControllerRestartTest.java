package io.criresmgr.controllers.memtierd;

import static io.criresmgr.controllers.memtierd.MemtierdFixture.memtierdClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.controllers.ControllerSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Daemon restarts (a new controller on the same run dir), reconfiguration and stop. */
class MemtierdControllerRestartTest {
  @TempDir Path tmp;
  private MemtierdFixture f;
  private Path v2;
  private ControllerContext context;

  @BeforeEach
  void setUp() throws IOException {
    f = MemtierdFixture.create(tmp);
    v2 = f.v2();
    context = withState(f.context(v2, f.section()));
    f.pod(
        Map.of(
            "class.memtierd.nri.io", "swap-idle-data",
            "class.memtierd.nri.io/c2", "wss"));
  }

  @AfterEach
  void killLeftovers() {
    f.fake.killAll();
  }

  /** {@code c} with the daemon's state directory under the test directory. */
  private ControllerContext withState(ControllerContext c) {
    return new ControllerContext(
        c.hostRoot(), c.cgroupMount(), c.sections(), c.node(), tmp.resolve("state"));
  }

  @Test
  void aRestartWithoutTheSectionStopsWhatTheEarlierRunLeft() throws IOException {
    running("c0");
    long pid = f.pid("c0");
    assertTrue(Files.exists(tmp.resolve("state").resolve(MemtierdLeftovers.FILE)));
    new MemtierdController().start(withState(f.context(v2, null)));
    FakeMemtierd.waitForExit(pid);
    assertFalse(Files.exists(f.dir("c0")));
    assertFalse(Files.exists(tmp.resolve("state").resolve(MemtierdLeftovers.FILE)));
  }

  @Test
  void aRestartWithTheControllerDisabledOrUnableToStartStopsThemToo() throws IOException {
    running("c0");
    long pid = f.pid("c0");
    ControllerSet disabled = new ControllerSet(List.of(new MemtierdController()));
    disabled.configure(Map.of("memtierd", ControllerMode.DISABLED), context);
    FakeMemtierd.waitForExit(pid);
    running("c1");
    long pid1 = f.pid("c1");
    ControllerSet failing = new ControllerSet(List.of(new MemtierdController()));
    failing.configure(Map.of(), withState(f.context(f.v1(), f.section())));
    assertEquals(Set.of(), failing.running(), "no cgroup v2 there");
    FakeMemtierd.waitForExit(pid1);
  }

  @Test
  void withoutAStateDirectoryNothingIsNotedOrStopped() throws IOException {
    MemtierdController controller = new MemtierdController();
    controller.start(f.context(v2, f.section()));
    controller.postStart(f.container("c0", ContainerState.RUNNING));
    long pid = f.pid("c0");
    new MemtierdController().start(f.context(v2, null));
    assertTrue(FakeMemtierd.alive(pid), "a daemon without state (a simulator) touches nothing");
  }

  /** A controller that ran memtierd for {@code names}; its pids are recorded. */
  private MemtierdController running(String... names) throws IOException {
    MemtierdController controller = new MemtierdController();
    controller.start(context);
    for (String name : names) {
      controller.postStart(f.container(name, ContainerState.RUNNING));
      f.fake.args(f.pid(name));
    }
    return controller;
  }

  @Test
  void aRestartedDaemonAdoptsRunningMemtierd() throws IOException {
    running("c0");
    long pid = f.pid("c0");
    MemtierdController restarted = new MemtierdController();
    restarted.start(context);
    assertTrue(FakeMemtierd.alive(pid));
    assertEquals(1, f.fake.started());
    restarted.postStop(f.node.activeContainers().get(0));
    FakeMemtierd.waitForExit(pid);
    assertFalse(Files.exists(f.dir("c0")));
  }

  @Test
  void startStopsTheMemtierdOfGoneContainers() throws IOException {
    running("c0", "c1");
    long pid0 = f.pid("c0");
    long pid1 = f.pid("c1");
    f.node.removeContainer("uid-0:c1");
    new MemtierdController().start(context);
    assertTrue(FakeMemtierd.alive(pid0));
    FakeMemtierd.waitForExit(pid1);
    assertFalse(Files.exists(f.dir("c1")));
  }

  @Test
  void startRunsMissingMemtierdForRunningContainersOnly() throws IOException {
    f.container("c0", ContainerState.RUNNING);
    f.container("c1", ContainerState.CREATED);
    new MemtierdController().start(context);
    f.fake.args(f.pid("c0"));
    assertEquals(1, f.fake.started());
    assertFalse(Files.exists(f.dir("c1")));
  }

  @Test
  void aRestartWithAnotherTemplateRestartsMemtierd() throws IOException {
    running("c0");
    long old = f.pid("c0");
    String template = "cgroup: $CGROUP2_ABS_PATH\n";
    new MemtierdController()
        .start(f.context(v2, f.section(memtierdClass("swap-idle-data", true, template))));
    long pid = f.pid("c0");
    assertNotEquals(old, pid);
    FakeMemtierd.waitForExit(old);
    assertEquals("cgroup: " + v2.resolve(MemtierdFixture.PARENT) + "/ctr-c0\n", f.fake.config(pid));
  }

  @Test
  void reconfigureRestartsChangedConfigurationsAndStopsClassesWithoutTemplate() throws IOException {
    context =
        f.context(
            v2,
            f.section(
                memtierdClass("swap-idle-data", true, MemtierdFixture.TEMPLATE),
                memtierdClass("wss", false, "wss: $CGROUP2_ABS_PATH\n")));
    MemtierdController controller = running("c0", "c1", "c2");
    long[] before = {f.pid("c0"), f.pid("c1"), f.pid("c2")};
    controller.reconfigure(context);
    assertEquals(3, f.fake.started());
    controller.reconfigure(
        f.context(
            v2,
            f.section(
                memtierdClass("swap-idle-data", true, "new: $CGROUP2_ABS_PATH\n"),
                memtierdClass("wss", false, null))));
    FakeMemtierd.waitForExit(before[0]);
    FakeMemtierd.waitForExit(before[1]);
    FakeMemtierd.waitForExit(before[2]);
    assertFalse(Files.exists(f.dir("c2")));
    assertTrue(f.fake.config(f.pid("c1")).startsWith("new: "));
  }

  @Test
  void reconfigureToAnotherRunDirMovesEveryMemtierd() throws IOException {
    MemtierdController controller = running("c0");
    long old = f.pid("c0");
    Path oldDir = f.dir("c0");
    controller.reconfigure(f.context(v2, f.section().put("rundir", tmp + "/run2")));
    FakeMemtierd.waitForExit(old);
    assertFalse(Files.exists(oldDir));
    long pid = FakeMemtierd.pidIn(tmp.resolve("run2/default/pod0/c0/memtierd.pid"));
    assertTrue(FakeMemtierd.alive(pid));
  }

  @Test
  void removingTheSectionOrStoppingTheControllerStopsEveryMemtierd() throws IOException {
    MemtierdController controller = running("c0");
    long pid = f.pid("c0");
    controller.reconfigure(f.context(v2, null));
    FakeMemtierd.waitForExit(pid);
    controller.reconfigure(context);
    pid = f.pid("c0");
    assertTrue(FakeMemtierd.alive(pid));
    controller.stop();
    FakeMemtierd.waitForExit(pid);
    assertFalse(Files.exists(f.dir("c0")));
  }

  @Test
  void postUpdateStartsTheMemtierdOfAContainerAdoptedFromTheRuntime() throws IOException {
    MemtierdController controller = running();
    Container c0 = f.container("c0", ContainerState.RUNNING);
    controller.postUpdate(c0);
    long pid = f.pid("c0");
    f.fake.args(pid);
    controller.postUpdate(c0);
    assertEquals(1, f.fake.started());
  }
}
