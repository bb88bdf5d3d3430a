package io.criresmgr.controllers.memtierd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.controllers.ControllerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs a {@link FakeMemtierd}. */
class MemtierdProcessesTest {
  private static final String TEMPLATE =
      "cgroups: [$CGROUP2_ABS_PATH]\nstats: $MEMTIERD_SWAP_STATS_PATH\n";
  private static final MemtierdContainer C0 = new MemtierdContainer("default", "pod0", "c0");
  private static final MemtierdContainer C1 = new MemtierdContainer("default", "pod0", "c1");

  @TempDir Path tmp;
  private FakeMemtierd fake;
  private Path memtierd;
  private Path runDir;

  @BeforeEach
  void writeFakeMemtierd() throws IOException {
    fake = FakeMemtierd.install(tmp.resolve("bin"));
    memtierd = fake.binary();
    runDir = tmp.resolve("run");
  }

  @AfterEach
  void killLeftovers() {
    fake.killAll();
  }

  private long start(MemtierdProcesses processes, MemtierdContainer c) {
    return processes.start(c, TEMPLATE, "/sys/fs/cgroup/pod0/" + c.container());
  }

  private List<String> recordedArgs(long pid) throws IOException {
    return fake.args(pid);
  }

  private static void waitFor(BooleanSupplier condition) {
    FakeMemtierd.waitFor(condition);
  }

  private long argsFiles() throws IOException {
    return fake.started();
  }

  @Test
  void startsMemtierdWithTheRenderedConfigAndTheOriginalArguments() throws IOException {
    MemtierdProcesses processes = new MemtierdProcesses(memtierd.toString(), runDir);
    long pid = start(processes, C0);
    Path dir = runDir.resolve("default/pod0/c0");
    assertEquals(List.of("-c", "", "-config", dir + "/memtierd.config.yaml"), recordedArgs(pid));
    assertEquals(
        "cgroups: [/sys/fs/cgroup/pod0/c0]\nstats: " + dir + "/memtierd.stats\n",
        Files.readString(dir.resolve("memtierd.config.yaml")));
    assertEquals(pid + "\n", Files.readString(dir.resolve("memtierd.pid")));
    waitFor(() -> outputOf(dir).contains("fake memtierd stderr"));
    assertEquals("fake memtierd started\nfake memtierd stderr\n", outputOf(dir));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(dir.resolve("memtierd.config.yaml"))));
    assertEquals(List.of(C0), processes.managed());
  }

  private static String outputOf(Path dir) {
    try {
      return Files.readString(dir.resolve("memtierd.output"));
    } catch (IOException e) {
      return "";
    }
  }

  @Test
  void startingTwiceKeepsOneProcess() throws IOException {
    MemtierdProcesses processes = new MemtierdProcesses(memtierd.toString(), runDir);
    long pid = start(processes, C0);
    recordedArgs(pid);
    assertEquals(pid, start(processes, C0));
    assertEquals(1, argsFiles());
  }

  @Test
  void stopKillsTheProcessTreeAndRemovesTheDirectory() throws IOException {
    MemtierdProcesses processes = new MemtierdProcesses(memtierd.toString(), runDir);
    long pid = start(processes, C0);
    recordedArgs(pid);
    ProcessHandle handle = ProcessHandle.of(pid).orElseThrow();
    waitFor(() -> handle.children().findAny().isPresent());
    List<ProcessHandle> tree = new ArrayList<>(handle.descendants().toList());
    tree.add(handle);
    assertTrue(processes.stop(C0));
    tree.forEach(h -> waitFor(() -> !h.isAlive()));
    assertFalse(Files.exists(runDir.resolve("default/pod0/c0")));
    assertEquals(List.of(), processes.managed());
    assertFalse(processes.stop(C0));
  }

  @Test
  void aRestartedDaemonAdoptsInsteadOfStartingAgain() throws IOException {
    long pid = start(new MemtierdProcesses(memtierd.toString(), runDir), C0);
    recordedArgs(pid);
    MemtierdProcesses restarted = new MemtierdProcesses(memtierd.toString(), runDir);
    assertEquals(java.util.Optional.of(pid), restarted.adopt(C0));
    assertEquals(pid, start(restarted, C0));
    assertEquals(1, argsFiles());
    assertTrue(restarted.stop(C0));
    FakeMemtierd.waitForExit(pid);
  }

  @Test
  void aReusedPidIsNotAdopted() throws IOException {
    MemtierdProcesses processes = new MemtierdProcesses(memtierd.toString(), runDir);
    Path dir = Files.createDirectories(runDir.resolve("default/pod0/c0"));
    long self = ProcessHandle.current().pid();
    Files.writeString(dir.resolve("memtierd.pid"), self + "\n");
    assertEquals(java.util.Optional.empty(), processes.adopt(C0));
    long pid = start(processes, C0);
    assertNotEquals(self, pid);
    assertEquals(pid + "\n", Files.readString(dir.resolve("memtierd.pid")));
  }

  @Test
  void reconcileStopsMemtierdOfGoneContainers() throws IOException {
    MemtierdProcesses before = new MemtierdProcesses(memtierd.toString(), runDir);
    long pid0 = start(before, C0);
    long pid1 = start(before, C1);
    recordedArgs(pid0);
    recordedArgs(pid1);
    MemtierdProcesses restarted = new MemtierdProcesses(memtierd.toString(), runDir);
    assertEquals(List.of(C0), restarted.reconcile(List.of(C0)));
    assertTrue(ProcessHandle.of(pid0).map(ProcessHandle::isAlive).orElse(false));
    waitFor(() -> !ProcessHandle.of(pid1).map(ProcessHandle::isAlive).orElse(false));
    assertFalse(Files.exists(runDir.resolve("default/pod0/c1")));
    assertEquals(List.of(C0), restarted.managed());
  }

  @Test
  void aBareCommandNameIsFoundInPathAndMatchedByFileName() {
    MemtierdProcesses processes = new MemtierdProcesses("memtierd", runDir);
    MemtierdFiles files = processes.files(C0);
    assertEquals(
        List.of("memtierd", "-c", "", "-config", runDir + "/default/pod0/c0/memtierd.config.yaml"),
        processes.arguments(files));
  }

  @Test
  void aSymbolicLinkInTheOutputPathIsRefused() throws IOException {
    Files.createDirectories(runDir.resolve("default"));
    Files.createSymbolicLink(runDir.resolve("default/pod0"), tmp);
    MemtierdProcesses processes = new MemtierdProcesses(memtierd.toString(), runDir);
    ControllerException e =
        assertThrows(ControllerException.class, () -> processes.start(C0, TEMPLATE, "/cg"));
    assertEquals(
        "failed to start memtierd for default/pod0:c0 in "
            + runDir.resolve("default/pod0/c0")
            + ": java.io.IOException: "
            + runDir.resolve("default/pod0")
            + " is a symbolic link, expected a directory",
        e.getMessage());
    assertEquals(0, argsFiles());
  }
}
