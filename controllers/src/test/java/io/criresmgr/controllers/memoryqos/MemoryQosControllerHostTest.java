package io.criresmgr.controllers.memoryqos;

import static io.criresmgr.controllers.memoryqos.MemoryQosControllerTest.M100;
import static io.criresmgr.controllers.memoryqos.MemoryQosControllerTest.SAMPLE;
import static io.criresmgr.controllers.memoryqos.MemoryQosControllerTest.json;
import static io.criresmgr.controllers.memoryqos.MemoryQosFixture.container;
import static io.criresmgr.controllers.memoryqos.MemoryQosFixture.creating;
import static io.criresmgr.controllers.memoryqos.MemoryQosFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.FakeNode;
import io.criresmgr.controllers.LogCapture;
import io.criresmgr.controllers.cgroups.FakeCgroupTree;
import io.criresmgr.controllers.cgroups.PageSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller on v1, hybrid and v2 hosts: starting, cgroup writes, reconfiguration. */
class MemoryQosControllerHostTest {
  private static final Map<String, JsonNode> SECTIONS =
      Map.of(MemoryQosConfig.SECTION, json(SAMPLE));
  private static final String NEEDS = "; memory QoS needs cgroup v2 with the memory controller";

  @TempDir Path dir;
  private final FakeNode node = new FakeNode();
  private final MemoryQosController controller = new MemoryQosController();
  private final LogCapture log = LogCapture.of(MemoryQosController.class, ControllerSet.class);

  @AfterEach
  void releaseLog() {
    log.close();
  }

  private ControllerContext context(Path mount, Map<String, JsonNode> sections) {
    return new ControllerContext(dir, mount, sections, node);
  }

  private FakeCgroupTree v2() {
    return FakeCgroupTree.v2(dir.resolve("cg"), "cpuset cpu io memory hugetlb pids");
  }

  private String startFailure(Path mount) {
    return assertThrows(ControllerException.class, () -> controller.start(context(mount, SECTIONS)))
        .getMessage();
  }

  @Test
  void aV1HostIsRefusedOnceWithWhatIsMissing() {
    Path mount = FakeCgroupTree.v1(dir.resolve("cg")).root;
    assertEquals(
        "memory.high and memory.swap.max do not exist on this host: cgroups under "
            + mount
            + " are v1 only"
            + NEEDS,
        startFailure(mount));
  }

  @Test
  void aHybridHostLikeThisMachineIsRefused() {
    Path mount = FakeCgroupTree.hybrid(dir.resolve("cg"), "hugetlb").root;
    assertEquals(
        "memory.high and memory.swap.max do not exist on this host: cgroups under "
            + mount
            + " are hybrid, memory is a v1 controller and the v2 hierarchy "
            + mount.resolve("unified")
            + " enables only hugetlb"
            + NEEDS,
        startFailure(mount));
  }

  @Test
  void aV2HostWithoutTheMemoryControllerAndAMissingMountAreRefused() {
    Path mount = FakeCgroupTree.v2(dir.resolve("cg"), "pids cpu").root;
    assertEquals(
        "memory.high and memory.swap.max do not exist on this host: the cgroup v2 hierarchy "
            + mount
            + " does not enable the memory controller (it enables only cpu, pids)"
            + NEEDS,
        startFailure(mount));
    Path missing = dir.resolve("no/sys/fs/cgroup");
    assertEquals(
        "memory QoS needs cgroup v2 with the memory controller, but cgroup mount "
            + missing
            + " is not a directory",
        startFailure(missing));
  }

  @Test
  void withoutASectionItStartsAnywhereAndDoesNothing() {
    controller.start(context(dir.resolve("missing"), Map.of()));
    controller.start(context(FakeCgroupTree.v1(dir.resolve("cg")).root, Map.of()));
    assertEquals(List.of(), log.events());
  }

  @Test
  void relaxedItIsDisabledWithOneWarningAndRequiredItRefusesTheConfig() {
    Path mount = FakeCgroupTree.hybrid(dir.resolve("cg"), "hugetlb").root;
    ControllerSet relaxed = new ControllerSet(List.of(controller));
    relaxed.configure(Map.of(), context(mount, SECTIONS));
    assertEquals(java.util.Set.of(), relaxed.running());
    List<String> warnings = log.messages(Level.WARN);
    assertEquals(1, warnings.size(), warnings::toString);
    assertTrue(
        warnings
            .get(0)
            .startsWith(
                "controller memory-qos cannot start, disabled (relaxed mode): memory.high and"
                    + " memory.swap.max do not exist on this host: cgroups under "),
        warnings::toString);
    ControllerSet required = new ControllerSet(List.of(new MemoryQosController()));
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () ->
                required.configure(
                    Map.of("memory-qos", ControllerMode.REQUIRED), context(mount, SECTIONS)));
    assertTrue(
        e.getMessage().startsWith("required controller memory-qos cannot start: memory.high"),
        e::getMessage);
  }

  @Test
  void postStartLeavesFilesTheRuntimeSetAsTheKernelShowsThemRoundedToPages() throws Exception {
    // runc wrote memory.high=50000000 from the unified fields; the kernel shows whole pages
    FakeCgroupTree tree = v2();
    Path cg = tree.cgroupDir("kubepods/burstable/pod-uid/ctr-0");
    long page = PageSize.host();
    Files.writeString(cg.resolve("memory.high"), 50_000_000 / page * page + "\n");
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(context(tree.root, SECTIONS));
    controller.postStart(container("p", "c0-lowprio", "ctr-0", M100, ContainerState.RUNNING));
    assertEquals(List.of(), log.messages(Level.INFO), "nothing written");
    assertEquals(50_000_000 / page * page + "\n", FakeCgroupTree.read(cg.resolve("memory.high")));
  }

  @Test
  void postStartWritesTheDecidedFilesOnlyWhereTheyDiffer() throws Exception {
    FakeCgroupTree tree = v2();
    Path mount = tree.root;
    Path cg = tree.cgroupDir("kubepods/burstable/pod-uid/ctr-0");
    Files.setLastModifiedTime(cg.resolve("memory.swap.max"), FileTime.fromMillis(0));
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(context(mount, SECTIONS));
    Container c0 = container("p", "c0-lowprio", "ctr-0", M100, ContainerState.RUNNING);
    controller.postStart(c0);
    assertEquals("50000000", FakeCgroupTree.read(cg.resolve("memory.high")));
    assertEquals("max\n", FakeCgroupTree.read(cg.resolve("memory.swap.max")), "already max");
    assertEquals(FileTime.fromMillis(0), Files.getLastModifiedTime(cg.resolve("memory.swap.max")));
    controller.postStart(c0);
    assertEquals(
        List.of("memory QoS of uid-p:c0-lowprio: wrote memory.high=50000000"),
        log.messages(Level.INFO),
        "a second start writes nothing");
  }

  @Test
  void postStartFindsSystemdScopes() {
    FakeCgroupTree tree = v2();
    Path mount = tree.root;
    Path cg =
        tree.cgroupDir(
            "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/"
                + "cri-containerd-ctr-2.scope");
    node.add(pod("p", MemoryQosTest.TEST_POD, "kubepods-burstable-pod1.slice"));
    controller.start(context(mount, SECTIONS));
    controller.postStart(container("p", "c2-noswap", "ctr-2", M100, ContainerState.RUNNING));
    assertEquals("0", FakeCgroupTree.read(cg.resolve("memory.swap.max")));
    assertEquals("max\n", FakeCgroupTree.read(cg.resolve("memory.high")));
  }

  @Test
  void aMissingCgroupIsAnErrorNamingWhatWasTried() {
    Path mount = v2().root;
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(context(mount, SECTIONS));
    Container c = container("p", "c1-normal", "gone", M100, ContainerState.RUNNING);
    ControllerException e = assertThrows(ControllerException.class, () -> controller.postStart(c));
    assertTrue(e.getMessage().startsWith("cgroup of container gone"), e::getMessage);
  }

  @Test
  void startAndReconfigureBringExistingContainersInLine() {
    FakeCgroupTree tree = v2();
    Path mount = tree.root;
    Path cg = tree.cgroupDir("kubepods/burstable/pod-uid/ctr-1");
    node.add(pod("p", MemoryQosTest.TEST_POD));
    node.add(container("p", "c1-normal", "ctr-1", M100, ContainerState.RUNNING));
    node.add(creating("p", "c0-lowprio", M100)); // no cgroup yet: skipped
    controller.start(context(mount, SECTIONS));
    assertEquals("80000000", FakeCgroupTree.read(cg.resolve("memory.high")));
    JsonNode changed =
        json(
            "{\"classes\": [{\"name\": \"silver\", \"swaplimitratio\": 0.5}, {\"name\": \"bronze\"}]}");
    controller.reconfigure(context(mount, Map.of("memory-qos", changed)));
    assertEquals("50000000", FakeCgroupTree.read(cg.resolve("memory.high")));
    assertEquals(List.of(), log.messages(Level.WARN));
  }

  @Test
  void anInvalidSectionIsRefusedAndTheOldOneStays() {
    Path mount = v2().root;
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(context(mount, SECTIONS));
    JsonNode bad = json("{\"classes\": [{\"name\": \"bronze\", \"swaplimitratio\": 1.5}]}");
    ControllerException e =
        assertThrows(
            ControllerException.class,
            () -> controller.reconfigure(context(mount, Map.of("memory-qos", bad))));
    assertEquals(
        "memory-qos.classes[0].swaplimitratio: invalid value 1.5: expected a number from 0.0 to"
            + " 1.0",
        e.getMessage());
    assertEquals("50000000", preCreate(creating("p", "c0-lowprio", M100)).get("memory.high"));
  }

  @Test
  void aRemovedSectionMakesItInert() {
    Path mount = v2().root;
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(context(mount, SECTIONS));
    controller.reconfigure(context(mount, Map.of()));
    assertEquals(Map.of(), preCreate(creating("p", "c0-lowprio", M100)));
  }

  @Test
  void aSectionArrivingOnAV1HostIsLoggedOnceAndIgnored() {
    Path mount = FakeCgroupTree.v1(dir.resolve("cg")).root;
    node.add(pod("p", MemoryQosTest.TEST_POD));
    controller.start(context(mount, Map.of()));
    controller.reconfigure(context(mount, SECTIONS));
    controller.reconfigure(context(mount, SECTIONS));
    assertEquals(Map.of(), preCreate(creating("p", "c0-lowprio", M100)));
    assertEquals(
        List.of(
            "memory-qos section ignored: memory.high and memory.swap.max do not exist on this"
                + " host: cgroups under "
                + mount
                + " are v1 only"
                + NEEDS),
        log.messages(Level.WARN));
  }

  private Map<String, String> preCreate(Container c) {
    ContainerEdits edits = new ContainerEdits();
    controller.preCreate(c, edits);
    return edits.unified();
  }
}
