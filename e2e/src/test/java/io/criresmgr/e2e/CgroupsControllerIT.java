package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.assertCpus;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.ContainerCgroup;
import io.criresmgr.controllers.cgroups.ContainerCgroups;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code cgroups} controller of {@code bin/cri-resmgr} (policy {@code template} on CPUs 0-1) in
 * front of a real containerd: a container with one whole CPU and a memory limit has its pinned CPU
 * and its limit in its real cgroup, and when both are changed by hand, a daemon restart puts them
 * back. Skipped like {@link TemplatePolicyIT}.
 */
@Tag("e2e")
class CgroupsControllerIT extends ResmgrBedTestBase {
  private static final Logger LOG = LoggerFactory.getLogger(CgroupsControllerIT.class);
  private static final long MEMORY_LIMIT = 128L << 20;

  /** Below the limit (and so below memory.memsw.limit_in_bytes, which the kernel requires). */
  private static final long DRIFTED_LIMIT = 64L << 20;

  private static final long RESTORE_WAIT_MILLIS = 10_000;

  @BeforeAll
  static void startDaemon() throws Exception {
    ResmgrBed.requireCpus01();
    bed().startProxy(TemplatePolicyIT.CONFIG);
  }

  @Test
  void pinnedCpuAndMemoryLimitAreInTheCgroupAndARestartRepairsDrift() throws Exception {
    String name = podName("cgroups");
    var spec = new WorkflowSpec(name, bed().workDir().resolve("logs"));
    CgroupLayout layout = CgroupLayout.detect(Path.of("/sys/fs/cgroup"));
    try (CriClient cri = new CriClient(bed().proxy().relaySocket());
        PinnedPod pod = PinnedPod.run(cri, spec, E2eNode.HOST)) {
      var resources = PinnedPod.oneWholeCpu().toBuilder().setMemoryLimitInBytes(MEMORY_LIMIT);
      String id = pod.start("limited", resources.build());
      ContainerCgroup cgroup = ContainerCgroups.find(layout, spec.cgroupParent(), id);
      Path cpus = cgroup.dir("cpuset").resolve("cpuset.cpus");
      Path memory = cgroup.dir("memory").resolve("memory.limit_in_bytes");
      String pinned = read(cpus);
      assertTrue(Set.of("0", "1").contains(pinned), () -> cpus + " holds " + pinned);
      assertCpus(pinned, pod.placement(id), "pinned container");
      assertEquals(Long.toString(MEMORY_LIMIT), read(memory), memory::toString);

      Files.writeString(cpus, "0-1", StandardCharsets.UTF_8);
      Files.writeString(memory, Long.toString(DRIFTED_LIMIT), StandardCharsets.UTF_8);
      assertCpus("0-1", pod.placement(id), "changed by hand");
      assertEquals(Long.toString(DRIFTED_LIMIT), read(memory), "changed by hand");

      long t0 = System.nanoTime();
      bed().restartProxy(TemplatePolicyIT.CONFIG);
      await(cpus, pinned);
      await(memory, Long.toString(MEMORY_LIMIT));
      LOG.info("restart and repair took {} ms", (System.nanoTime() - t0) / 1_000_000);
      assertCpus(pinned, pod.placement(id), "after the restart");
      String log = bed().proxy().log();
      assertTrue(
          log.contains("restored [cpuset.cpus, memory limit] in the cgroup of " + name + "-uid:"),
          () -> "the cgroups controller did not report the repair:\n" + log);
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", bed().proxy().log());
      throw e;
    }
  }

  /** The daemon repairs in {@code start()}, before it serves; poll a little to be robust. */
  private static void await(Path file, String value) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + RESTORE_WAIT_MILLIS;
    while (!read(file).equals(value) && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(value, read(file), () -> file + " after the daemon's restart");
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8).trim();
  }
}
