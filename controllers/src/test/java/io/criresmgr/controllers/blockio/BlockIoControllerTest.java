package io.criresmgr.controllers.blockio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerContext;
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

class BlockIoControllerTest {
  private static final String KEY = BlockIoClassChoice.CRI_RESMGR_KEY + "/pod";
  private static final String CLASSES =
      "{'Classes': {'Slow': [{'Weight': 80}, {'Devices': ['/dev/sda'], 'ThrottleReadBps': '50M',"
          + " 'Weight': 50}], 'Fast': [{'Weight': 400}]}}";
  private static final String CG = "kubepods/besteffort/podA/a";
  private static final List<String> V1_FILES =
      List.of(
          "blkio.bfq.weight",
          "blkio.bfq.weight_device",
          "blkio.throttle.read_bps_device",
          "blkio.throttle.write_bps_device",
          "blkio.throttle.read_iops_device",
          "blkio.throttle.write_iops_device");

  @TempDir Path dir;
  private Path host;
  private final FakeNode node = new FakeNode();
  private final BlockIoController blockio = new BlockIoController();

  @BeforeEach
  void host() {
    host = dir.resolve("host");
    new FakeBlockDevices(host).disk("sda", "8:0", "[bfq] none").disk("sdb", "8:16", "[none]");
  }

  private Container inPod(String annotation) {
    node.add(
        FakeNode.pod(
            "A",
            "/kubepods/besteffort/podA",
            annotation.isEmpty() ? Map.of() : Map.of(KEY, annotation)));
    return FakeNode.container("a", "A", "a", QosClass.BEST_EFFORT, Assignment.NONE, Set.of());
  }

  private FakeCgroupTree v1() {
    FakeCgroupTree t = FakeCgroupTree.v1(dir.resolve("cg")).cgroup(CG);
    V1_FILES.forEach(f -> FakeCgroupTree.write(t.root.resolve("blkio/" + CG + "/" + f), ""));
    return t;
  }

  private FakeCgroupTree v2(String controllers) {
    FakeCgroupTree t = FakeCgroupTree.v2(dir.resolve("cg"), controllers).cgroup(CG);
    for (String f : List.of(BlockIoFiles.V2_WEIGHT, BlockIoFiles.V2_MAX)) {
      FakeCgroupTree.write(t.root.resolve(CG + "/" + f), "");
    }
    return t;
  }

  private ControllerContext context(FakeCgroupTree t, String section) throws Exception {
    return new ControllerContext(
        host,
        t.root,
        Map.of("blockio", new ObjectMapper().readTree(section.replace('\'', '"'))),
        node);
  }

  @Test
  void nriClassesSendsTheChosenClassOnlyIfListedAndNeverFails() throws Exception {
    FakeCgroupTree t = v2("cpuset cpu io memory");
    blockio.start(
        context(t, CLASSES.substring(0, CLASSES.length() - 1) + ", 'NriClasses': ['Slow']}"));
    assertEquals(Optional.of("Slow"), creationClass(inPod("Slow")));
    // Configured but not listed (the runtime may not have it), unknown, QoS default without a
    // class: nothing is sent and the creation goes on; the start applies or reports as before.
    assertEquals(Optional.empty(), creationClass(inPod("Fast")));
    assertEquals(Optional.empty(), creationClass(inPod("Gold")));
    assertEquals(Optional.empty(), creationClass(inPod("")));

    // The class is still written after the start (the same values: harmless).
    blockio.postStart(inPod("Slow"));
    assertEquals("default " + BlockIoFiles.v2Weight(80) + "\n", t.read(CG + "/io.weight"));
  }

  @Test
  void withoutNriClassesNothingIsSent() throws Exception {
    blockio.start(context(v2("cpuset cpu io memory"), CLASSES));
    assertEquals(Optional.empty(), creationClass(inPod("Slow")));
  }

  private Optional<String> creationClass(Container c) {
    ContainerEdits edits = new ContainerEdits();
    blockio.preCreate(c, edits);
    assertEquals(Optional.empty(), edits.rdtClass());
    return edits.blockIoClass();
  }

  @Test
  void startWritesV1FilesAndResetsDevicesTheClassDoesNotSet() throws Exception {
    FakeCgroupTree t = v1();
    FakeCgroupTree.write(
        t.root.resolve("blkio/" + CG + "/blkio.throttle.read_bps_device"), "8:16 1000\n");
    node.add(inPod("Slow"));
    blockio.start(context(t, CLASSES));
    assertEquals("80\n", t.read("blkio/" + CG + "/blkio.bfq.weight"));
    assertEquals("8:0 50\n", t.read("blkio/" + CG + "/blkio.bfq.weight_device"));
    // The old content stays in the fake file; the kernel would keep only the settings.
    assertEquals(
        "8:16 1000\n8:0 50000000\n8:16 0\n",
        t.read("blkio/" + CG + "/blkio.throttle.read_bps_device"));
    assertEquals("", t.read("blkio/" + CG + "/blkio.throttle.write_bps_device"));
  }

  @Test
  void v2WhenTheUnifiedHierarchyHasIoAndNoFileTakesTheDeviceWeight() throws Exception {
    // sda's scheduler is bfq, but the BFQ module's io.bfq.weight is not in the cgroup: the
    // device weight is skipped (with a warning), the rest is written
    FakeCgroupTree t = v2("cpuset cpu io memory");
    blockio.start(context(t, CLASSES));
    blockio.postStart(inPod("Slow"));
    assertEquals("default " + BlockIoFiles.v2Weight(80) + "\n", t.read(CG + "/io.weight"));
    assertEquals("8:0 rbps=50000000 wbps=max riops=max wiops=max\n", t.read(CG + "/io.max"));
  }

  @Test
  void v2DeviceWeightOfABfqDeviceGoesIntoIoBfqWeightUnconverted() throws Exception {
    FakeCgroupTree t = v2("cpuset cpu io memory");
    FakeCgroupTree.write(t.root.resolve(CG + "/io.bfq.weight"), "default 100\n");
    blockio.start(context(t, CLASSES));
    blockio.postStart(inPod("Slow"));
    assertEquals("default 100\n80\n8:0 50\n", t.read(CG + "/io.bfq.weight"));
    assertEquals("default " + BlockIoFiles.v2Weight(80) + "\n", t.read(CG + "/io.weight"));
  }

  @Test
  void v2DeviceWeightOfADeviceWithIoCostGoesIntoIoWeight() throws Exception {
    new FakeBlockDevices(host).scheduler("sda", "[none] bfq");
    FakeCgroupTree t = v2("cpuset cpu io memory");
    FakeCgroupTree.write(t.root.resolve("io.cost.qos"), "8:0 enable=1 ctrl=auto\n");
    blockio.start(context(t, CLASSES));
    blockio.postStart(inPod("Slow"));
    assertEquals(
        "default " + BlockIoFiles.v2Weight(80) + "\n8:0 " + BlockIoFiles.v2Weight(50) + "\n",
        t.read(CG + "/io.weight"));
  }

  @Test
  void aLineTheKernelRefusesDoesNotStopTheOthersAndIsReportedAfterwards() throws Exception {
    FakeCgroupTree t = v2("cpuset cpu io memory");
    Path weight = t.root.resolve(CG + "/io.weight");
    Files.delete(weight);
    blockio.start(context(t, CLASSES));
    Container c = inPod("Slow");
    assertEquals(
        "cannot write \"default 708\" to " + weight + ": No such file or directory",
        assertThrows(BlockIoException.class, () -> blockio.postStart(c)).getMessage());
    assertEquals("8:0 rbps=50000000 wbps=max riops=max wiops=max\n", t.read(CG + "/io.max"));
  }

  @Test
  void withoutAnyBlockIoControllerStartFails() throws Exception {
    FakeCgroupTree t = v2("cpuset cpu memory");
    assertEquals(
        "no block I/O cgroup controller under "
            + t.root
            + ": neither a blkio hierarchy (cgroup v1) nor io in the v2 hierarchy's"
            + " cgroup.controllers",
        assertThrows(BlockIoException.class, () -> blockio.start(context(t, CLASSES)))
            .getMessage());
  }

  @Test
  void qosClassDefaultsWithoutConfiguredClassesWriteNothing() throws Exception {
    FakeCgroupTree t = v1();
    blockio.start(context(t, "{}"));
    blockio.postStart(inPod(""));
    for (String f : V1_FILES) {
      assertEquals("", t.read("blkio/" + CG + "/" + f), f);
    }
  }

  @Test
  void anUnknownAnnotatedClassIsAnErrorNamingTheAnnotationAndTheClasses() throws Exception {
    blockio.start(context(v1(), CLASSES));
    Container c = inPod("Gold");
    assertEquals(
        "block I/O class \"Gold\" (from "
            + KEY
            + ") is not configured; configured classes: Slow, Fast",
        assertThrows(BlockIoException.class, () -> blockio.postStart(c)).getMessage());
  }

  @Test
  void postUpdateWritesThePolicysClassOnlyWhenPending() throws Exception {
    FakeCgroupTree t = v1();
    blockio.start(context(t, CLASSES));
    Container c =
        inPod("Slow")
            .withAssignment(
                new Assignment(CpuSet.EMPTY, CpuSet.EMPTY, 0, 0, 0, 0, Map.of(), "", "Fast"),
                Set.of());
    blockio.postUpdate(c);
    assertEquals("", t.read("blkio/" + CG + "/blkio.bfq.weight"));
    blockio.postUpdate(c.withAssignment(c.assignment(), Set.of(BlockIoController.NAME)));
    assertEquals("400\n", t.read("blkio/" + CG + "/blkio.bfq.weight"));
  }

  @Test
  void reconfigureReappliesToEveryContainer() throws Exception {
    FakeCgroupTree t = v1();
    node.add(inPod("Fast"));
    blockio.start(context(t, CLASSES));
    blockio.reconfigure(context(t, CLASSES.replace("400", "500")));
    assertEquals("400\n500\n", t.read("blkio/" + CG + "/blkio.bfq.weight"));
  }
}
