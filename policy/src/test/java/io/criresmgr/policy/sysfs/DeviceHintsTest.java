package io.criresmgr.policy.sysfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.TmpfsTempDirFactory;
import io.criresmgr.policy.sysfs.DeviceHints.Use;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device topology hints from a fake host's sysfs (docs/topology.md, "Device hints"). */
class DeviceHintsTest {
  @TempDir(factory = TmpfsTempDirFactory.class)
  Path root;

  private List<TopologyHint> hints(Use... uses) {
    return new DeviceHints(root).hints(List.of(uses));
  }

  private static Use rw(String hostPath) {
    return new Use(hostPath, hostPath, false);
  }

  @Test
  void aVfioGroupHintsWhereItsDevicesAre() {
    FakeDevices.write(root, "/dev/vfio/7", 2, CpuSet.parse("8-11"));
    assertEquals(
        List.of(new TopologyHint("/dev/vfio/7", CpuSet.parse("8-11"), CpuSet.of(2))),
        hints(rw("/dev/vfio/7")));
  }

  @Test
  void aDeviceNodeKnownByItsNumberHintsAsItsPathDoes() {
    FakeDevices.write(root, "/dev/vfio/7", 2, CpuSet.parse("8-11"));
    FakeDevices.write(root, "/dev/accel0", 3, CpuSet.EMPTY);
    DeviceHints.Node vfio = new DeviceHints.Node("/dev/vfio/7", false, FakeDevices.MAJOR, 1, false);
    DeviceHints.Node readOnly =
        new DeviceHints.Node("/dev/accel0", false, FakeDevices.MAJOR, 2, true);
    DeviceHints.Node block = new DeviceHints.Node("/dev/sdz", true, FakeDevices.MAJOR, 1, false);
    DeviceHints.Node unknown = new DeviceHints.Node("/dev/x", false, FakeDevices.MAJOR, 9, false);
    assertEquals(
        hints(rw("/dev/vfio/7")),
        new DeviceHints(root).hints(List.of(), List.of(vfio, readOnly, block, unknown)));
    assertEquals(
        List.of(new TopologyHint("/dev/accel0", CpuSet.EMPTY, CpuSet.of(3))),
        new DeviceHints(root)
            .hints(List.of(), List.of(new DeviceHints.Node("/dev/accel0", false, 240, 2, false))));
  }

  @Test
  void aSysfsPathIsItsDevice() {
    Path function = FakeDevices.write(root, "/dev/nvidia0", 1, CpuSet.parse("4-7"));
    String sysPath = "/" + root.relativize(function);
    assertEquals(
        List.of(new TopologyHint(sysPath, CpuSet.parse("4-7"), CpuSet.of(1))),
        hints(new Use(sysPath, "/sys/devices/gpu", false)));
  }

  @Test
  void aDeviceWithoutLocalCpusHintsItsNode() {
    FakeDevices.write(root, "/dev/accel0", 3, CpuSet.EMPTY);
    assertEquals(
        List.of(new TopologyHint("/dev/accel0", CpuSet.EMPTY, CpuSet.of(3))),
        hints(rw("/dev/accel0")));
  }

  @Test
  void aDeviceWithNeitherGivesNoHint() {
    FakeDevices.write(root, "/dev/accel0", -1, CpuSet.EMPTY);
    assertEquals(List.of(), hints(rw("/dev/accel0")));
  }

  @Test
  void aDeviceNodeIsFoundByItsMajorAndMinor() throws Exception {
    assertTrue(Files.exists(Path.of("/dev/null")), "the real /dev/null, char 1:3");
    Path function = FakeDevices.write(root, "/dev/other", 0, CpuSet.parse("0-3"));
    Files.createSymbolicLink(root.resolve("dev/null"), Path.of("/dev/null")); // char 1:3
    Files.createDirectories(root.resolve("sys/dev/char"));
    Files.createSymbolicLink(root.resolve("sys/dev/char/1:3"), function);
    assertEquals(
        List.of(new TopologyHint("/dev/null", CpuSet.parse("0-3"), CpuSet.of(0))),
        hints(rw("/dev/null")));
  }

  @Test
  void aStackedBlockDeviceHintsItsSlaves() throws Exception {
    Path a = FakeDevices.write(root, "/dev/nvme0n1", 0, CpuSet.parse("0-3"));
    Path b = FakeDevices.write(root, "/dev/nvme1n1", 3, CpuSet.parse("12-15"));
    Path dm = root.resolve("sys/devices/virtual/block/dm-0");
    Files.createDirectories(dm.resolve("slaves"));
    Files.createSymbolicLink(dm.resolve("slaves/nvme0n1"), a);
    Files.createSymbolicLink(dm.resolve("slaves/nvme1n1"), b);
    Files.createSymbolicLink(root.resolve("dev/dm-0"), dm);
    assertEquals(
        List.of(
            new TopologyHint("/dev/dm-0", CpuSet.parse("0-3"), CpuSet.of(0)),
            new TopologyHint("/dev/dm-0", CpuSet.parse("12-15"), CpuSet.of(3))),
        hints(rw("/dev/dm-0")));
  }

  @Test
  void readOnlySystemAndKubeletFilesGiveNoHint() {
    FakeDevices.write(root, "/dev/vfio/7", 2, CpuSet.parse("8-11"));
    assertEquals(List.of(), hints(new Use("/dev/vfio/7", "/dev/vfio/7", true)));
    assertEquals(false, DeviceHints.considered(rw("/etc/hosts")));
    assertEquals(false, DeviceHints.considered(new Use("/var/x", "/dev/termination-log", false)));
    assertEquals(false, DeviceHints.considered(rw("/usr/lib64/libcuda.so")));
    assertEquals(
        false,
        DeviceHints.considered(
            rw("/var/lib/kubelet/pods/0f1e-22/volumes/kubernetes.io~secret/token/")));
    assertEquals(true, DeviceHints.considered(rw("/var/lib/kubelet/pods/0f1e-22/volumes/x/")));
  }

  @Test
  void aMissingPathGivesNoHint() {
    assertEquals(List.of(), hints(rw("/dev/vfio/9")));
  }
}
