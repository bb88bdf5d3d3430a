package io.criresmgr.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCpusTest {
  @TempDir Path root;

  private String error() {
    return assertThrows(PolicyException.class, () -> HostCpus.read(root)).getMessage();
  }

  @Test
  void readsOnlineCpusAndMemoryNodes() {
    FakeSysfs.at(root).cpusOnline("0-3,8-11").nodesOnline("0-1");
    assertEquals(new HostCpus(CpuSet.parse("0-3,8-11"), CpuSet.of(0, 1)), HostCpus.read(root));
  }

  @Test
  void withoutANodeFileThereIsNodeZero() {
    FakeSysfs.at(root).cpusOnline("0-1");
    assertEquals(CpuSet.of(0), HostCpus.read(root).memoryNodes());
  }

  @Test
  void aMissingCpuFileIsNamed() {
    assertEquals(
        root.resolve("sys/devices/system/cpu/online") + ": missing; is --host-root right?",
        error());
  }

  @Test
  void malformedAndEmptyFilesAreNamed() {
    FakeSysfs.at(root).cpusOnline("0-3").nodesOnline("zero");
    assertEquals(
        root.resolve("sys/devices/system/node/online")
            + ": invalid CPU list \"zero\": \"zero\" is not a number or a range like 0-3"
            + " (expected a list such as 0-3,8)",
        error());
    FakeSysfs.at(root).cpusOnline("");
    assertEquals(
        root.resolve("sys/devices/system/cpu/online") + ": empty, expected a list such as 0-3",
        error());
  }

  @Test
  void anUnreadableFileIsNamed() {
    FakeSysfs.at(root).write("sys/devices/system/cpu/online/oops", "directory, not a file");
    assertTrue(
        error().startsWith(root.resolve("sys/devices/system/cpu/online") + ": cannot read: "));
  }

  @Test
  void buildsAPolicyContext() {
    FakeSysfs.at(root).cpusOnline("0-7").nodesOnline("0");
    PolicyContext context =
        HostCpus.read(root).context(root, Map.of("CPU", "cpuset:1-3"), Map.of());
    assertEquals(CpuSet.range(0, 7), context.onlineCpus());
    assertEquals(Map.of("CPU", "cpuset:1-3"), context.availableResources());
    assertEquals(root, context.hostRoot());
  }
}
