package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerCpusTest {
  private static final String PROC_CGROUP =
      """
      12:pids:/e2e/abc
      7:cpu,cpuacct:/e2e/abc
      3:cpuset:/e2e/abc
      0::/
      """;

  @Test
  void findsTheCpusetHierarchyAmongCombinedOnes() throws IOException {
    assertEquals("/e2e/abc", ContainerCpus.cpusetCgroup(PROC_CGROUP));
    assertEquals("/x", ContainerCpus.cpusetCgroup("5:cpuset,cpu:/x\n"));
  }

  @Test
  void aHostWithoutCpusetHierarchyIsAnError() {
    var e = assertThrows(IOException.class, () -> ContainerCpus.cpusetCgroup("0::/\n"));
    assertTrue(e.getMessage().startsWith("no cpuset hierarchy in:"), e.getMessage());
  }

  @Test
  void findsTheUnifiedCgroupOnAPureV2Node() throws IOException {
    assertEquals("/kubepods/pod1/abc", ContainerCpus.unifiedCgroup("0::/kubepods/pod1/abc\n"));
    assertEquals("/x", ContainerCpus.unifiedCgroup(PROC_CGROUP.replace("0::/", "0::/x")));
    var e = assertThrows(IOException.class, () -> ContainerCpus.unifiedCgroup("3:cpuset:/a\n"));
    assertEquals("no unified (0::) cgroup in:\n3:cpuset:/a\n", e.getMessage());
  }

  @Test
  void readsThePidOfContainerdsVerboseInfo() throws IOException {
    assertEquals(
        4242, ContainerCpus.initPid("{\"sandboxID\":\"s\",\"pid\":4242,\"removing\":false}"));
    var e = assertThrows(IOException.class, () -> ContainerCpus.initPid("{\"pid\":0}"));
    assertEquals("no pid in the container's verbose info: {\"pid\":0}", e.getMessage());
  }

  @Test
  void readsCgroupAndProcessCpus(@TempDir Path dir) throws IOException {
    Path proc = Files.createDirectories(dir.resolve("proc/77"));
    Files.writeString(proc.resolve("cgroup"), PROC_CGROUP);
    Files.writeString(proc.resolve("status"), "Name:\tsh\nCpus_allowed_list:\t1\nX:\t2\n");
    Path cpuset = Files.createDirectories(dir.resolve("cgroup/cpuset/e2e/abc"));
    Files.writeString(cpuset.resolve("cpuset.cpus"), "1\n");
    var placement = new ContainerCpus(dir.resolve("proc"), dir.resolve("cgroup")).of(77);
    assertEquals(new ContainerCpus.Placement("/e2e/abc", "1", "1"), placement);
  }
}
