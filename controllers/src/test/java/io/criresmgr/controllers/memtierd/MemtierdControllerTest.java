package io.criresmgr.controllers.memtierd;

import static io.criresmgr.controllers.memtierd.MemtierdFixture.memtierdClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.LogCapture;
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

/** The hooks of one controller on fake cgroup trees with a fake memtierd. */
class MemtierdControllerTest {
  private static final Map<String, String> SWAP = Map.of("class.memtierd.nri.io", "swap-idle-data");

  @TempDir Path tmp;
  private MemtierdFixture f;
  private final MemtierdController controller = new MemtierdController();

  @BeforeEach
  void setUp() throws IOException {
    f = MemtierdFixture.create(tmp);
  }

  @AfterEach
  void killLeftovers() {
    f.fake.killAll();
  }

  private Container started(Path mount, Map<String, String> annotations) {
    controller.start(f.context(mount, f.section()));
    f.pod(annotations);
    Container c0 = f.container("c0", ContainerState.RUNNING);
    controller.postStart(c0);
    return c0;
  }

  private Map<String, String> preCreate(Container c) {
    ContainerEdits edits = new ContainerEdits();
    controller.preCreate(c, edits);
    return edits.unified();
  }

  @Test
  void withoutASectionTheControllerIsInert() {
    controller.start(f.context(tmp.resolve("no-such-cgroup-mount"), null));
    f.pod(SWAP);
    Container c0 = f.container("c0", ContainerState.RUNNING);
    assertEquals(Map.of(), preCreate(c0));
    controller.postStart(c0);
    controller.postStop(c0);
    assertFalse(Files.exists(f.runDir));
  }

  @Test
  void aHostWithoutCgroupV2CannotRunIt() throws IOException {
    Path v1 = f.v1();
    ControllerException e =
        assertThrows(ControllerException.class, () -> controller.start(f.context(v1, f.section())));
    assertEquals(
        "memory.high and memory.swap.max do not exist on this host: cgroups under "
            + v1
            + " are v1 only; memtierd needs cgroup v2 with the memory controller",
        e.getMessage());
    Path none = tmp.resolve("fake-root/sys/fs/cgroup");
    e =
        assertThrows(
            ControllerException.class, () -> controller.start(f.context(none, f.section())));
    assertEquals(
        "memtierd needs cgroup v2 with the memory controller, but cgroup mount "
            + none
            + " is not a directory",
        e.getMessage());
  }

  @Test
  void inAControllerSetTheModeDecidesWhatAFailureDoes() throws IOException {
    Path v1 = f.v1();
    ControllerSet relaxed = new ControllerSet(List.of(controller));
    relaxed.configure(Map.of(), f.context(v1, f.section()));
    assertEquals(Set.of(), relaxed.running());
    ControllerSet required = new ControllerSet(List.of(new MemtierdController()));
    Map<String, ControllerMode> modes = Map.of("memtierd", ControllerMode.REQUIRED);
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> required.configure(modes, f.context(v1, f.section())));
    assertEquals(
        "required controller memtierd cannot start: memory.high and memory.swap.max do not"
            + " exist on this host: cgroups under "
            + v1
            + " are v1 only; memtierd needs cgroup v2 with the memory controller",
        e.getMessage());
    required.configure(modes, f.context(f.v2(), f.section()));
    f.pod(Map.of("class.memtierd.nri.io", "gold"));
    Container c0 = f.container("c0", ContainerState.CREATING);
    e = assertThrows(ControllerException.class, () -> required.preCreate(c0, new ContainerEdits()));
    assertTrue(
        e.getMessage()
            .startsWith("controller memtierd (pre-create): unknown memtierd class \"gold\""),
        e::getMessage);
  }

  @Test
  void aMissingBinaryIsReportedAtStart() throws IOException {
    Path v2 = f.v2();
    var section = f.section().put("binary", "/nonexistent/memtierd");
    ControllerException e =
        assertThrows(ControllerException.class, () -> controller.start(f.context(v2, section)));
    assertEquals(
        "memtierd.binary: /nonexistent/memtierd is not an executable file", e.getMessage());
    section.put("binary", "no-such-memtierd-binary");
    e = assertThrows(ControllerException.class, () -> controller.start(f.context(v2, section)));
    assertEquals("memtierd.binary: no-such-memtierd-binary not found in PATH", e.getMessage());
  }

  @Test
  void postStartRunsMemtierdWithTheRenderedConfiguration() throws IOException {
    Path v2 = f.v2();
    started(v2, SWAP);
    long pid = f.pid("c0");
    Path dir = f.dir("c0");
    assertEquals(List.of("-c", "", "-config", dir + "/memtierd.config.yaml"), f.fake.args(pid));
    assertEquals(
        "cgroups: ["
            + v2.resolve(MemtierdFixture.PARENT).resolve("ctr-c0")
            + "]\nstats: "
            + dir.resolve("memtierd.stats")
            + "\n",
        f.fake.config(pid));
  }

  @Test
  void aHybridHostCannotRunItSinceRuncRefusesUnifiedFilesThere() throws IOException {
    // runc refuses CRI unified resources unless cgroup v2 is mounted alone: the swap claims of
    // every annotated container would fail CreateContainer, even with the controller relaxed.
    Path hybrid = f.hybrid();
    ControllerException e =
        assertThrows(
            ControllerException.class, () -> controller.start(f.context(hybrid, f.section())));
    assertTrue(e.getMessage().contains("are hybrid, memory is a v1 controller"), e.getMessage());
    assertTrue(
        e.getMessage().endsWith("memtierd needs cgroup v2 with the memory controller"),
        e.getMessage());
  }

  @Test
  void postStopStopsMemtierdAndRemovesItsDirectoryWhenThePodIsGone() throws IOException {
    Container c0 = started(f.v2(), SWAP);
    long pid = f.pid("c0");
    f.fake.args(pid);
    f.node.removePod(MemtierdFixture.POD_ID);
    controller.postStop(c0);
    FakeMemtierd.waitForExit(pid);
    assertFalse(Files.exists(f.dir("c0")));
  }

  @Test
  void aClassWithoutTemplateOrAnEmptyClassRunsNoMemtierd() throws IOException {
    controller.start(f.context(f.v2(), f.section()));
    f.pod(
        Map.of(
            "class.memtierd.nri.io", "swap-idle-data",
            "class.memtierd.nri.io/c1", "noswap",
            "class.memtierd.nri.io/c2", ""));
    Container c1 = f.container("c1", ContainerState.RUNNING);
    Container c2 = f.container("c2", ContainerState.RUNNING);
    assertEquals(Map.of("memory.swap.max", "0"), preCreate(c1));
    assertEquals(Map.of(), preCreate(c2));
    controller.postStart(c1);
    controller.postStart(c2);
    assertEquals(0, f.fake.started());
    assertFalse(Files.exists(f.runDir.resolve("default")));
  }

  @Test
  void anUnknownClassFailsCreation() throws IOException {
    controller.start(f.context(f.v2(), f.section()));
    f.pod(Map.of("class.memtierd.nri.io/c0", "gold"));
    Container c0 = f.container("c0", ContainerState.CREATING);
    ControllerException e = assertThrows(ControllerException.class, () -> preCreate(c0));
    assertEquals(
        "unknown memtierd class \"gold\" (annotation class.memtierd.nri.io/c0), configured"
            + " classes: [swap-idle-data, noswap]",
        e.getMessage());
  }

  @Test
  void createAndUpdateClaimTheClassAndAnnotationFiles() throws IOException {
    controller.start(f.context(f.v2(), f.section()));
    f.pod(Map.of("class.memtierd.nri.io", "swap-idle-data", "memory.high.memtierd.nri.io", "1G"));
    Container c0 = f.container("c0", ContainerState.RUNNING);
    Map<String, String> expected = Map.of("memory.high", "1G", "memory.swap.max", "max");
    assertEquals(expected, preCreate(c0));
    ContainerEdits update = new ContainerEdits();
    controller.preUpdate(c0, update);
    assertEquals(expected, update.unified());
  }

  @Test
  void aClassRemovedSinceCreationDoesNotFailAnUpdate() throws IOException {
    Path v2 = f.v2();
    controller.start(f.context(v2, f.section()));
    f.pod(Map.of("class.memtierd.nri.io", "noswap"));
    Container c0 = f.container("c0", ContainerState.RUNNING);
    controller.reconfigure(f.context(v2, f.section(memtierdClass("other", null, null))));
    ContainerEdits update = new ContainerEdits();
    controller.preUpdate(c0, update);
    assertEquals(Map.of(), update.unified());
  }

  @Test
  void aConflictWithMemoryQosNamesBoth() throws IOException {
    controller.start(f.context(f.v2(), f.section()));
    f.pod(Map.of("class.memtierd.nri.io", "noswap"));
    Container c0 = f.container("c0", ContainerState.CREATING);
    ContainerEdits edits = new ContainerEdits();
    edits.claimUnified("memory-qos", "memory.swap.max", "max");
    ControllerException e =
        assertThrows(ControllerException.class, () -> controller.preCreate(c0, edits));
    assertEquals(
        "conflicting values for cgroup file memory.swap.max: memory-qos sets \"max\","
            + " memtierd sets \"0\"",
        e.getMessage());
  }

  @Test
  void ignoredAnnotationsAreWarnedAboutOncePerPod() throws IOException {
    try (LogCapture log = LogCapture.of(MemtierdController.class)) {
      controller.start(f.context(f.v2(), f.section()));
      f.pod(Map.of("swappiness.memtierd.nri.io", "10"));
      preCreate(f.container("c0", ContainerState.CREATING));
      preCreate(f.container("c1", ContainerState.CREATING));
      controller.preUpdate(f.container("c0", ContainerState.RUNNING), new ContainerEdits());
      assertEquals(
          List.of(
              "memtierd: pod default/pod0: swappiness.memtierd.nri.io: ignored, memtierd"
                  + " annotations are class, memory.swap.max, memory.high"),
          log.messages());
    }
  }
}
