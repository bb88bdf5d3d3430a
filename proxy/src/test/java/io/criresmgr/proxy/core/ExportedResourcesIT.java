package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.MountPropagation;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import io.criresmgr.proxy.config.PolicyConfig;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exported resource data through the daemon with topology-aware on n4c16 (four NUMA nodes of four
 * CPUs, CPU 0 reserved; a Burstable container of 8 CPUs runs on the root pool 1-15): the
 * CreateContainer request the runtime gets mounts the container's directory read-only at
 * /.cri-resmgr, resources.sh names its CPUs and memory nodes, is rewritten when another container
 * takes CPUs and is removed with the container.
 */
class ExportedResourcesIT {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void startRuntime() throws Exception {
    FakeSysfsWriter.write(TopologySpec.builtIn("n4c16"), dir.resolve("sysfs"));
    h = new PipelineHarness(dir);
  }

  @AfterEach
  void stop() {
    h.close();
  }

  private void startDaemon() throws InterruptedException {
    PolicyConfig policy =
        new PolicyConfig("topology-aware", Map.of(), Map.of("CPU", "1"), Map.of());
    h.startDaemon(
        h.optionsOnHost(dir.resolve("sysfs")),
        PipelineHarness.config(policy),
        new TopologyAwarePolicyProvider());
  }

  private Path containerDir(String name) {
    return h.relayDir().resolve("containers/uid-" + name + "-c");
  }

  private String exported(String name) throws IOException {
    return Files.readString(containerDir(name).resolve("resources.sh"));
  }

  /**
   * Waits until {@code name}'s file holds {@code expected}: other containers' files are rewritten
   * just after the step, off the pipeline thread.
   */
  private void awaitExported(String name, String expected) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String now = exported(name);
    while (!now.equals(expected)) {
      if (System.nanoTime() > deadline) {
        assertEquals(expected, now, "exported resources of " + name + " after " + WAIT);
      }
      Thread.sleep(10);
      now = exported(name);
    }
  }

  private static void awaitGone(Path path) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      if (System.nanoTime() > deadline) {
        fail(path + " still there " + WAIT + " after RemoveContainer");
      }
      Thread.sleep(10);
    }
  }

  @Test
  void theRuntimeMountsTheContainersDirectoryReadOnly() throws Exception {
    startDaemon();
    String id = run("s", "burstable", 8000);

    List<Mount> mounts = mounts(id);
    assertEquals(1, mounts.size(), mounts.toString());
    Mount m = mounts.get(0);
    assertEquals("/.cri-resmgr", m.getContainerPath());
    assertEquals(containerDir("s").toString(), m.getHostPath());
    assertTrue(m.getReadonly(), "read-only");
    assertEquals(MountPropagation.PROPAGATION_PRIVATE, m.getPropagation());
    assertTrue(Files.isRegularFile(Path.of(m.getHostPath()).resolve("resources.sh")));
    // Private on the host (the relay directory is 0700), readable by any user in the container.
    assertEquals("rwx------", mode(h.relayDir().resolve("containers")));
    assertEquals("rwxr-xr-x", mode(containerDir("s")));
    assertEquals("rw-r--r--", mode(containerDir("s").resolve("resources.sh")));
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }

  private static final String SHARED_1_15 =
      "ALL_MEMS=\"0,1,2,3\"\nDRAM_MEMS=\"0,1,2,3\"\nSHARED_CPUS=\"1-15\"\n";

  /** The file as the runtime would find it now, or what is there instead. */
  private String seenByRuntime(String name) {
    Path file = containerDir(name).resolve("resources.sh");
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return (Files.isDirectory(containerDir(name)) ? "directory, no file: " : "no directory: ")
          + e;
    }
  }

  @Test
  void theDirectoryIsThereWhenTheRuntimeCreatesAndTheFileWhenTheCreateIsAnswered()
      throws Exception {
    startDaemon();
    List<String> seen = new CopyOnWriteArrayList<>();
    h.runtime()
        .hooks()
        .onRequest(
            "CreateContainer",
            m -> seen.add("create: directory " + Files.isDirectory(containerDir("s"))));
    h.runtime().hooks().onRequest("StartContainer", m -> seen.add("start: " + seenByRuntime("s")));

    String id = create("s", "burstable", 8000);
    // Answered: the file is there, without waiting for any writer.
    assertEquals(SHARED_1_15, seenByRuntime("s"));
    h.start(id);
    assertEquals(List.of("create: directory true", "start: " + SHARED_1_15), seen);
  }

  @Test
  void aContainerCreatedBeforeACrashFindsItsFileWhenItStarts() throws Exception {
    startDaemon();
    String id = create("s", "burstable", 8000);
    h.stopDaemon();
    // As a crash after the create was sent and before the file was written leaves it.
    Files.delete(containerDir("s").resolve("resources.sh"));
    List<String> seen = new CopyOnWriteArrayList<>();
    h.runtime().hooks().onRequest("StartContainer", m -> seen.add(seenByRuntime("s")));

    startDaemon();
    h.start(id);
    assertEquals(List.of(SHARED_1_15), seen);
  }

  @Test
  void aFailedCreateLeavesNoDirectory() throws Exception {
    startDaemon();
    h.runtime().hooks().failNext("CreateContainer", Status.RESOURCE_EXHAUSTED);
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> create("s", "burstable", 8000));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    awaitGone(containerDir("s"));
    JsonNode cache = h.barrier();
    assertEquals(0, cache.path("Containers").size(), cache.toPrettyString());
  }

  @Test
  void theFileNamesTheCpusAndFollowsTheSharedSet() throws Exception {
    startDaemon();
    String shared = run("s", "burstable", 8000);
    assertEquals("1-15", h.cpuset(shared));
    assertEquals(
        "ALL_MEMS=\"0,1,2,3\"\nDRAM_MEMS=\"0,1,2,3\"\nSHARED_CPUS=\"1-15\"\n", exported("s"));

    String exclusive = run("g", "", 2000);
    assertEquals("4-5", h.cpuset(exclusive));
    assertEquals("ALL_MEMS=\"1\"\nDRAM_MEMS=\"1\"\nEXCLUSIVE_CPUS=\"4-5\"\n", exported("g"));
    // Another container took CPUs 4-5 from the shared set: the file shows what is left.
    assertEquals("1-3,6-15", h.cpuset(shared));
    awaitExported("s", "ALL_MEMS=\"0,1,2,3\"\nDRAM_MEMS=\"0,1,2,3\"\nSHARED_CPUS=\"1-3,6-15\"\n");
  }

  @Test
  void theDirectoryGoesWithTheContainer() throws Exception {
    startDaemon();
    String id = run("s", "besteffort", 0);
    assertTrue(Files.isDirectory(containerDir("s")));
    h.stop(id);
    h.remove(id);
    awaitGone(containerDir("s"));
  }

  @Test
  void startUpRemovesStaleDirectoriesAndRewritesKnownOnes() throws Exception {
    startDaemon();
    run("s", "burstable", 8000);
    h.stopDaemon();
    Files.createDirectories(h.relayDir().resolve("containers/uid-gone-c"));
    Files.writeString(containerDir("s").resolve("resources.sh"), "SHARED_CPUS=\"stale\"\n");

    startDaemon();
    h.barrier();
    assertFalse(Files.exists(h.relayDir().resolve("containers/uid-gone-c")));
    awaitExported("s", "ALL_MEMS=\"0,1,2,3\"\nDRAM_MEMS=\"0,1,2,3\"\nSHARED_CPUS=\"1-15\"\n");
  }

  @Test
  void anUnwritableDirectoryLeavesTheContainerWithoutTheMount() throws Exception {
    Files.createDirectories(h.relayDir());
    Files.writeString(h.relayDir().resolve("containers"), "not a directory");
    startDaemon();
    String id = run("s", "burstable", 8000);
    assertEquals(List.of(), mounts(id));
    assertEquals("1-15", h.cpuset(id));
  }

  private List<Mount> mounts(String id) {
    return h.direct()
        .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
        .getStatus()
        .getMountsList();
  }

  /** Runs pod {@code name} of QoS {@code qos} ("" Guaranteed) with container c; its id. */
  private String run(String name, String qos, long milli) {
    String id = create(name, qos, milli);
    h.start(id);
    return id;
  }

  /** Runs pod {@code name} of QoS {@code qos} ("" Guaranteed) and creates container c; its id. */
  private String create(String name, String qos, long milli) {
    String parent = qos.isEmpty() ? "/kubepods/pod" + name : "/kubepods/" + qos + "/pod" + name;
    PodSandboxConfig sandbox =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName(name)
                    .setNamespace("default")
                    .setUid("uid-" + name))
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(parent))
            .build();
    String podId = h.runPod(sandbox, h.relay());
    LinuxContainerResources.Builder r =
        LinuxContainerResources.newBuilder()
            .setCpuShares(Math.max(2, milli * 1024 / 1000))
            .setCpuPeriod(100_000)
            .setMemoryLimitInBytes(128L << 20);
    if (qos.isEmpty()) {
      r.setCpuQuota(milli * 100);
    }
    return h.create(podId, sandbox, "c", r.build());
  }
}
