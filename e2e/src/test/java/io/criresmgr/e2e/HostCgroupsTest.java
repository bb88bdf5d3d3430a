package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCgroupsTest {
  @TempDir Path root;

  private void write(String relative, String content) throws Exception {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  @Test
  void readsTheContainersFilesInEachV1Hierarchy() throws Exception {
    write("cpuset/pods-1/abc/cpuset.cpus", "0\n");
    write("memory/pods-1/abc/memory.limit_in_bytes", "268435456\n");
    write("cpu/pods-1/abc/cpu.shares", "512\n");
    assertEquals(
        new CgroupValues("0", "268435456", "512"), new HostCgroups(root).read("/pods-1", "abc"));
  }

  @Test
  void writesOneFileOfTheContainer() throws Exception {
    write("memory/pods-1/abc/memory.limit_in_bytes", "268435456\n");
    var cgroups = new HostCgroups(root);
    cgroups.write("memory", "/pods-1", "abc", "memory.limit_in_bytes", "67108864");
    assertEquals("67108864", cgroups.read("memory", "/pods-1", "abc", "memory.limit_in_bytes"));
  }

  @Test
  void removesOnlyEmptyParents() throws Exception {
    Files.createDirectories(root.resolve("cpuset/pods-1"));
    write("memory/pods-1/left-behind/tasks", "");
    new HostCgroups(root).removeParent("/pods-1");
    assertFalse(Files.exists(root.resolve("cpuset/pods-1")));
    assertTrue(Files.exists(root.resolve("memory/pods-1/left-behind")));
  }
}
