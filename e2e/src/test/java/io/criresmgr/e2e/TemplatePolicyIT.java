package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/cri-resmgr} with the {@code template} policy on CPUs 0-1 in front of a real
 * containerd: a container asking for one whole CPU gets CPU 0 or 1 to itself, shared containers get
 * the other one (including one that ran before and is updated), and all of it is what the host's
 * cgroups and the containers' processes show. Skipped like {@link CrictlWorkflowIT}, and also when
 * CPUs 0 and 1 are not both online.
 */
@Tag("e2e")
class TemplatePolicyIT {
  private static final Logger LOG = LoggerFactory.getLogger(TemplatePolicyIT.class);
  private static final Path MODULE_DIR = Path.of("").toAbsolutePath();
  private static final HostCgroups CGROUPS = new HostCgroups(Path.of("/sys/fs/cgroup"));
  private static final ContainerCpus CPUS =
      new ContainerCpus(Path.of("/proc"), Path.of("/sys/fs/cgroup"));
  private static final String BOTH = "0-1";
  private static final long RELEASE_WAIT_MILLIS = 10_000;

  /** Policy template on CPUs 0-1 (all of this 2-CPU machine), no HTTP endpoint. */
  static final String CONFIG =
      """
      policy:
        Active: template
        AvailableResources:
          CPU: cpuset:0-1
      instrumentation:
        HTTPEndpoint: ""
        PrometheusExport: false
      """;

  private static @Nullable ContainerdBed bed;
  private static @Nullable Path workDir;
  private static @Nullable CriResmgrProcess proxy;

  @BeforeAll
  static void start() throws Exception {
    bed = ContainerdBed.startOrSkip(MODULE_DIR);
    String online =
        Files.readString(Path.of("/sys/devices/system/cpu/online"), StandardCharsets.UTF_8).trim();
    if (!online.startsWith("0-") && !online.startsWith("0,1")) {
      E2eRequirement.unavailable("CPUs 0 and 1 are not both online: " + online);
    }
    workDir = Files.createTempDirectory(Path.of("/tmp"), "crm-e2e-");
    Path launcher = MODULE_DIR.getParent().resolve("bin/cri-resmgr");
    proxy = CriResmgrProcess.start(launcher, bed.socket(), workDir.resolve("proxy"), CONFIG);
  }

  @AfterAll
  static void stop() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (bed != null) {
      bed.stop();
    }
    if (workDir != null) {
      WorkDirs.deleteTree(workDir);
    }
  }

  @Test
  void aWholeCpuContainerGetsOneCpuToItselfAndSharedContainersTheOther() throws Exception {
    CriResmgrProcess daemon = require(proxy);
    String name = "cri-resmgr-e2e-" + ProcessHandle.current().pid() + "-template";
    var spec = new WorkflowSpec(name, require(workDir).resolve("logs"));
    long t0 = System.nanoTime();
    try (CriClient cri = new CriClient(daemon.relaySocket());
        PinnedPod pod = PinnedPod.run(cri, spec, CPUS, CGROUPS)) {
      String early = pod.start("shared-early", PinnedPod.halfCpuShared());
      assertCpus(BOTH, pod.placement(early), "shared container alone");

      String exclusive = pod.start("exclusive", PinnedPod.oneWholeCpu());
      ContainerCpus.Placement pinned = pod.placement(exclusive);
      assertTrue(Set.of("0", "1").contains(pinned.cgroupCpus()), pinned::toString);
      assertCpus(pinned.cgroupCpus(), pinned, "exclusive container");
      String other = pinned.cgroupCpus().equals("0") ? "1" : "0";
      // the daemon updates the shared container before it lets the exclusive one be created
      assertCpus(other, pod.placement(early), "shared container started before");

      String late = pod.start("shared-late", PinnedPod.halfCpuShared());
      assertCpus(other, pod.placement(late), "shared container started after");
      LOG.info("exclusive {}, shared {} and {}", pinned, pod.placement(early), pod.placement(late));

      pod.remove(exclusive);
      awaitCpus(BOTH, pod, early);
      awaitCpus(BOTH, pod, late);
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", daemon.log());
      throw e;
    }
    LOG.info("template placement checks took {} ms", (System.nanoTime() - t0) / 1_000_000);
  }

  /** Cgroup and process agree on {@code cpus}. */
  private static void assertCpus(String cpus, ContainerCpus.Placement placement, String what) {
    assertEquals(cpus, placement.cgroupCpus(), () -> what + ": cgroup of " + placement);
    assertEquals(cpus, placement.allowedCpus(), () -> what + ": process of " + placement);
  }

  /** Releases are enforced after RemoveContainer has answered: poll for a while. */
  private static void awaitCpus(String cpus, PinnedPod pod, String id)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + RELEASE_WAIT_MILLIS;
    ContainerCpus.Placement placement = pod.placement(id);
    while (!placement.cgroupCpus().equals(cpus) && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
      placement = pod.placement(id);
    }
    assertCpus(cpus, placement, "shared container after the exclusive one left");
  }

  private static <T> T require(@Nullable T value) {
    if (value == null) {
      throw new IllegalStateException("not started");
    }
    return value;
  }
}
