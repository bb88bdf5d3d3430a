package io.criresmgr.controllers.rdt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.controllers.FakeNode;
import io.criresmgr.controllers.cgroups.FakeCgroupTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RdtControllerTest {
  private static final String RDT_KEY = RdtClassChoice.CRI_RESMGR_KEY + "/pod";

  @TempDir Path dir;
  private Path host;
  private Path resctrl;
  private FakeCgroupTree cgroups;
  private final FakeNode node = new FakeNode();
  private final RdtController rdt = new RdtController();

  @BeforeEach
  void tree() throws Exception {
    host = dir.resolve("host");
    resctrl = FakeResctrl.create(host.resolve("sys/fs/resctrl"));
    cgroups = FakeCgroupTree.v2(dir.resolve("cgroup"), "cpuset cpu io memory");
    for (String cls : List.of("Guaranteed", "Burstable", "BestEffort")) {
      FakeResctrl.write(resctrl.resolve("cri-resmgr." + cls + "/tasks"), "");
    }
    node.add(FakeNode.pod("A", "/kubepods/besteffort/podA", Map.of()));
    node.add(FakeNode.pod("B", "/kubepods/burstable/podB", Map.of(RDT_KEY, "Guaranteed")));
    node.add(FakeNode.pod("C", "/kubepods/burstable/podC", Map.of(RDT_KEY, "Gold")));
  }

  private Container running(String id, String pod, QosClass qos, String pids) {
    String parent =
        qos == QosClass.BEST_EFFORT ? "kubepods/besteffort/pod" : "kubepods/burstable/pod";
    cgroups.cgroup(parent + pod + "/" + id);
    FakeCgroupTree.write(cgroups.root.resolve(parent + pod + "/" + id + "/cgroup.procs"), pids);
    return FakeNode.container(id, pod, "c" + id, qos, Assignment.NONE, Set.of());
  }

  private ControllerContext context(String rdtSection) throws Exception {
    return new ControllerContext(
        host, cgroups.root, Map.of("rdt", RdtConfigTest.json(rdtSection.replace('\'', '"'))), node);
  }

  /** Empties cri-resmgr's group directories: the kernel removes a group with its files. */
  private void rmdirable() throws Exception {
    for (String cls : new ResctrlGroups(resctrl).existing()) {
      try (var files = Files.list(resctrl.resolve("cri-resmgr." + cls))) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
    }
  }

  private String read(String relative) throws Exception {
    return Files.readString(resctrl.resolve(relative));
  }

  @Test
  void nriClassesSendsTheResolvedDiscoveredClassAtCreationAndStillMovesTheTasks() throws Exception {
    rmdirable();
    FakeResctrl.write(resctrl.resolve("gold/tasks"), "");
    FakeResctrl.write(resctrl.resolve("silver/tasks"), "");
    node.add(FakeNode.pod("D", "/kubepods/burstable/podD", Map.of(RDT_KEY, "gold")));
    rdt.start(context("{'options': {'mode': 'Discovery', 'nriClasses': true}}"));

    Container d = running("d", "D", QosClass.BURSTABLE, "11\n12\n");
    assertEquals(Optional.of("gold"), creationClass(d));
    // An unknown class and a QoS default without its group resolve to the root class, which is
    // never sent (an empty NRI class would clear the runtime's).
    assertEquals(Optional.empty(), creationClass(running("c", "C", QosClass.BURSTABLE, "")));
    assertEquals(Optional.empty(), creationClass(running("a", "A", QosClass.BEST_EFFORT, "")));
    // The policy's class wins over the annotation, as after the start.
    Container assigned =
        FakeNode.container(
            "d",
            "D",
            "cd",
            QosClass.BURSTABLE,
            new Assignment(CpuSet.EMPTY, CpuSet.EMPTY, 0, 0, 0, 0, Map.of(), "silver", ""),
            Set.of());
    assertEquals(Optional.of("silver"), creationClass(assigned));

    // After the start the controller moves the tasks as without the option: the same group.
    rdt.postStart(d);
    assertEquals("11\n12\n", read("gold/tasks"));
  }

  @Test
  void nriClassesSendsNothingForAGroupRemovedSinceTheDiscovery() throws Exception {
    rmdirable();
    FakeResctrl.write(resctrl.resolve("gold/tasks"), "");
    node.add(FakeNode.pod("D", "/kubepods/burstable/podD", Map.of(RDT_KEY, "gold")));
    rdt.start(context("{'options': {'mode': 'Discovery', 'nriClasses': true}}"));
    Container d = running("d", "D", QosClass.BURSTABLE, "11\n");
    assertEquals(Optional.of("gold"), creationClass(d));
    // runc would refuse a closID without its directory: the class is not sent at all.
    Files.delete(resctrl.resolve("gold/tasks"));
    Files.delete(resctrl.resolve("gold"));
    assertEquals(Optional.empty(), creationClass(d));
  }

  @Test
  void withoutNriClassesNothingIsSent() throws Exception {
    rmdirable();
    FakeResctrl.write(resctrl.resolve("gold/tasks"), "");
    node.add(FakeNode.pod("D", "/kubepods/burstable/podD", Map.of(RDT_KEY, "gold")));
    rdt.start(context("{'options': {'mode': 'Discovery'}}"));
    assertEquals(Optional.empty(), creationClass(running("d", "D", QosClass.BURSTABLE, "")));
  }

  private Optional<String> creationClass(Container c) {
    ContainerEdits edits = new ContainerEdits();
    rdt.preCreate(c, edits);
    assertEquals(Optional.empty(), edits.blockIoClass());
    return edits.rdtClass();
  }

  @Test
  void startAppliesTheClassesDropsStaleGroupsAndAssignsEveryContainer() throws Exception {
    Files.createDirectories(resctrl.resolve("cri-resmgr.Old"));
    Files.createDirectories(resctrl.resolve("other"));
    node.add(running("a", "A", QosClass.BEST_EFFORT, "41\n42\n"));
    node.add(running("b", "B", QosClass.BURSTABLE, "7\n"));
    rdt.start(context(RdtConfigTest.EXAMPLE));
    assertEquals("L3:0=180;1=180\nMB:0=25;1=25\n", read("cri-resmgr.BestEffort/schemata"));
    assertEquals("L3:0=7f;1=7f\nMB:0=100;1=100\n", read("cri-resmgr.Guaranteed/schemata"));
    assertFalse(Files.exists(resctrl.resolve("cri-resmgr.Old")));
    assertTrue(Files.isDirectory(resctrl.resolve("other")));
    assertEquals("41\n42\n", read("cri-resmgr.BestEffort/tasks"));
    assertEquals("7\n", read("cri-resmgr.Guaranteed/tasks"));
  }

  @Test
  void withoutResctrlStartFailsAndARequiredControllerRefusesToStart() throws Exception {
    Path missing = dir.resolve("bare");
    Files.createDirectories(missing);
    ControllerContext inert = new ControllerContext(missing, cgroups.root, Map.of(), node);
    rdt.start(inert); // no rdt section: nothing to check, nothing to say
    rdt.postStart(running("a", "A", QosClass.BEST_EFFORT, "5\n"));
    ControllerContext ctx =
        new ControllerContext(
            missing,
            cgroups.root,
            Map.of("rdt", RdtConfigTest.json(RdtConfigTest.EXAMPLE.replace('\'', '"'))),
            node);
    Path root = missing.resolve("sys/fs/resctrl");
    String why =
        "resctrl not available: "
            + root
            + "/info does not exist (is resctrl mounted at "
            + root
            + "?)";
    assertEquals(why, assertThrows(RdtException.class, () -> rdt.start(ctx)).getMessage());
    ControllerSet set = new ControllerSet(List.of(rdt));
    assertEquals(
        "required controller rdt cannot start: " + why,
        assertThrows(
                ControllerException.class,
                () -> set.configure(Map.of("rdt", ControllerMode.REQUIRED), ctx))
            .getMessage());
    set.configure(Map.of("rdt", ControllerMode.RELAXED), ctx);
    assertEquals(Set.of(), set.running());
  }

  @Test
  void withoutASectionNothingMovesAndARemovedSectionDropsOurGroups() throws Exception {
    ControllerContext none = new ControllerContext(host, cgroups.root, Map.of(), node);
    rdt.start(none);
    Container a = running("a", "A", QosClass.BEST_EFFORT, "5\n");
    node.add(a);
    rdt.postStart(a);
    assertEquals("", read("cri-resmgr.BestEffort/tasks"), "no task moved");
    assertEquals("", read("tasks"), "not even to the root group");
    rdt.reconfigure(context(RdtConfigTest.EXAMPLE));
    assertEquals("5\n", read("cri-resmgr.BestEffort/tasks"), "a section starts it");
    rmdirable();
    rdt.reconfigure(none);
    assertEquals(Set.of(), new ResctrlGroups(resctrl).existing());
  }

  @Test
  void hooksMoveTasksAfterStartAndPendingUpdates() throws Exception {
    rdt.start(context(RdtConfigTest.EXAMPLE));
    Container a = running("a", "A", QosClass.BEST_EFFORT, "5\n");
    rdt.postStart(a);
    assertEquals("5\n", read("cri-resmgr.BestEffort/tasks"));
    Container moved =
        a.withAssignment(
            new Assignment(CpuSet.EMPTY, CpuSet.EMPTY, 0, 0, 0, 0, Map.of(), "Burstable", ""),
            Set.of());
    rdt.postUpdate(moved);
    assertEquals("", read("cri-resmgr.Burstable/tasks"));
    rdt.postUpdate(moved.withAssignment(moved.assignment(), Set.of(RdtController.NAME)));
    assertEquals("5\n", read("cri-resmgr.Burstable/tasks"));
  }

  @Test
  void anUnknownClassFallsBackToTheRootGroup() throws Exception {
    rdt.start(context(RdtConfigTest.EXAMPLE));
    rdt.postStart(running("c", "C", QosClass.BURSTABLE, "9\n"));
    assertEquals("9\n", read("tasks"));
  }

  @Test
  void aMissingCgroupIsNamed() throws Exception {
    rdt.start(context(RdtConfigTest.EXAMPLE));
    Container ghost =
        FakeNode.container("x", "A", "ghost", QosClass.BEST_EFFORT, Assignment.NONE, Set.of());
    String msg = assertThrows(ControllerException.class, () -> rdt.postStart(ghost)).getMessage();
    assertTrue(
        msg.startsWith("cgroup of container x (cgroup parent /kubepods/besteffort/podA)"), msg);
  }

  @Test
  void reconfigureToDisabledDropsTheGroupsAndUsesTheRootClass() throws Exception {
    node.add(running("a", "A", QosClass.BEST_EFFORT, "41\n"));
    rdt.start(context(RdtConfigTest.EXAMPLE));
    rmdirable();
    rdt.reconfigure(context("{'options': {'mode': 'Disabled'}}"));
    assertEquals(Set.of(), new ResctrlGroups(resctrl).existing());
    assertEquals("41\n", read("tasks"));
  }

  @Test
  void discoveryUsesExistingGroupsAndMapsQosClassesOnlyIfSuchAGroupExists() throws Exception {
    FakeResctrl.write(resctrl.resolve("BestEffort/tasks"), "");
    node.add(running("a", "A", QosClass.BEST_EFFORT, "41\n"));
    rmdirable();
    rdt.start(context("{'options': {'mode': 'discovery'}}"));
    assertEquals(Set.of(), new ResctrlGroups(resctrl).existing());
    assertEquals("41\n", read("BestEffort/tasks"));
  }

  @Test
  void aConfigurationThatDoesNotFitIsRefusedAndChangesNothing() throws Exception {
    rdt.start(context(RdtConfigTest.EXAMPLE));
    assertEquals(
        "rdt partition p: L3 allocation 0xf000 for cache id 0 does not fit cbm_mask 7ff",
        assertThrows(
                RdtException.class,
                () -> rdt.reconfigure(context("{'partitions': {'p': {'l3Allocation': '0xf000'}}}")))
            .getMessage());
    assertEquals(
        Set.of("Guaranteed", "Burstable", "BestEffort"), new ResctrlGroups(resctrl).existing());
  }
}
