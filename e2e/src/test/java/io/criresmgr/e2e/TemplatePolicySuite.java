package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.assertCpus;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/cri-resmgr} with the {@code template} policy on CPUs 0-1 in front of a real
 * containerd: a container asking for one whole CPU gets CPU 0 or 1 to itself, shared containers get
 * the other one (including one that ran before and is updated), and all of it is what the node's
 * cgroups and the containers' processes show. Run on this host ({@link TemplatePolicyIT}) and in
 * the VM bed ({@link TemplatePolicyVmIT}). Skipped like {@link CrictlWorkflowIT}, and also when
 * CPUs 0 and 1 are not both online on the node.
 */
@Tag("e2e")
abstract class TemplatePolicySuite {
  private static final Logger LOG = LoggerFactory.getLogger(TemplatePolicySuite.class);
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

  @BeforeAll
  static void startDaemon(SuiteBed bed) throws Exception {
    String online = bed.onlineCpus();
    if (!online.startsWith("0-") && !online.startsWith("0,1")) {
      E2eRequirement.unavailable("CPUs 0 and 1 are not both online: " + online);
    }
    bed.startDaemon(CONFIG);
  }

  @Test
  void aWholeCpuContainerGetsOneCpuToItselfAndSharedContainersTheOther(SuiteBed bed)
      throws Exception {
    ResmgrDaemon daemon = bed.daemon();
    String name = podName("template");
    var spec = new WorkflowSpec(name, bed.logDir(name));
    long t0 = System.nanoTime();
    try (CriClient cri = new CriClient(daemon.relaySocket())) {
      assertPlacements(cri, spec, bed.node());
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", daemon.log());
      throw e;
    }
    LOG.info("template placement checks took {} ms", (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * The checks through {@code cri} (the relay socket in proxy mode, containerd's own in NRI mode,
   * {@link NriModeVmIT}) with the pod of {@code spec} on {@code node}, the daemon running {@link
   * #CONFIG}: a shared container alone gets both CPUs; a whole-CPU container gets one of them, and
   * the shared container the other by the time the whole-CPU one is created; a shared container
   * started after it gets the other CPU too; both get both CPUs back after the removal.
   */
  static void assertPlacements(CriClient cri, WorkflowSpec spec, E2eNode node) throws Exception {
    try (PinnedPod pod = PinnedPod.run(cri, spec, node)) {
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
    }
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
}
