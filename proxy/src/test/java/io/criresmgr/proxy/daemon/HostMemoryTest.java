package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostMemoryTest {
  @TempDir Path root;

  private void write(String path, String text) throws Exception {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @Test
  void procMeminfoWinsOverTheNodes() throws Exception {
    write("proc/meminfo", "MemTotal:       16303416 kB\nMemFree:         1000 kB\n");
    write("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:       16777216 kB\n");
    assertEquals(16_303_416L * 1024, HostMemory.capacity(root));
  }

  @Test
  void withoutProcMeminfoTheNodesAreSummed() throws Exception {
    write("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:        2097152 kB\n");
    write("sys/devices/system/node/node1/meminfo", "Node 1 MemTotal:        1048576 kB\n");
    write("sys/devices/system/node/has_normal_memory", "0-1\n");
    assertEquals(3L << 30, HostMemory.capacity(root));
  }

  @Test
  void unreadableOrMalformedIsUnknown() throws Exception {
    assertEquals(0, HostMemory.capacity(root));
    write("proc/meminfo", "MemFree:         1000 kB\n");
    assertEquals(0, HostMemory.capacity(root));
  }
}
