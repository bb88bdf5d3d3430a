package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.assertCpus;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/cri-resmgr} with the balloons policy ({@link #CONFIG}) in front of a real containerd
 * on this 2-CPU node: CPU 0 is the reserved balloon, which kube-system containers get and the
 * default balloon shares; pods annotated with balloon type {@code pinned} get a balloon of their
 * own of at most one CPU, CPU 1, and at most one such balloon exists, so a container that does not
 * fit it is refused. Checked in the node's cgroups and in the containers' processes, on this host
 * ({@link BalloonsPolicyIT}) and in the VM bed ({@link BalloonsPolicyVmIT}). Skipped like {@link
 * CrictlWorkflowIT}, and when the node does not have exactly CPUs 0-1 online.
 */
@Tag("e2e")
abstract class BalloonsPolicySuite {
  private static final Logger LOG = LoggerFactory.getLogger(BalloonsPolicySuite.class);

  /** The pod annotation that chooses the balloon type. */
  static final String ANNOTATION = "balloon.balloons.cri-resource-manager.intel.com/pod";

  /** Reserved CPU 0; type {@code pinned}: one balloon of at most one CPU; default on CPU 0. */
  static final String CONFIG =
      """
      policy:
        Active: balloons
        ReservedResources:
          CPU: cpuset:0
        balloons:
          BalloonTypes:
            - Name: pinned
              MaxCPUs: 1
              MaxBalloons: 1
      instrumentation:
        HTTPEndpoint: ""
        PrometheusExport: false
      """;

  @BeforeAll
  static void startDaemon(SuiteBed bed) throws Exception {
    bed.requireCpus01();
    bed.startDaemon(CONFIG);
  }

  @Test
  void reservedBalloonForKubeSystemOwnBalloonForAnnotatedPodsAndRefusalBeyondMaxBalloons(
      SuiteBed bed) throws Exception {
    ResmgrDaemon daemon = bed.daemon();
    String name = podName("bl");
    Path logs = bed.logDir(name);
    try (CriClient cri = new CriClient(daemon.relaySocket())) {
      assertPlacements(cri, name, logs, bed.node());
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", daemon.log());
      throw e;
    }
  }

  /**
   * The suite's placements, for pods created through {@code cri}: the relay here, containerd's CRI
   * in NRI mode ({@code NriModeVmIT}, which checks that both modes place alike). A kube-system
   * container and a default-namespace one share the reserved balloon (CPU 0), an annotated pod's
   * container gets the pinned balloon (CPU 1), a second pinned container is refused beyond
   * MaxBalloons, and once the first is removed the whole-CPU container fits.
   */
  static void assertPlacements(CriClient cri, String name, Path logs, E2eNode node)
      throws Exception {
    try (PinnedPod system = ResmgrBed.runKubeSystemPod(cri, name, logs, node);
        PinnedPod other =
            PinnedPod.run(
                cri, WorkflowSpec.guaranteed(name + "-d", logs, WorkflowSpec.NAMESPACE), node);
        PinnedPod app =
            PinnedPod.run(
                cri,
                WorkflowSpec.guaranteed(name, logs, WorkflowSpec.NAMESPACE),
                Map.of(ANNOTATION, "pinned"),
                node)) {
      String dns = system.start("dns", PinnedPod.halfCpuShared());
      assertCpus("0", system.placement(dns), "kube-system container in the reserved balloon");

      String misc = other.start("misc", PinnedPod.halfCpuShared());
      assertCpus("0", other.placement(misc), "default balloon, on the reserved CPU");

      String web = app.start("web", PinnedPod.halfCpuShared());
      assertCpus("1", app.placement(web), "container of the pinned balloon");

      StatusRuntimeException refused =
          assertThrows(
              StatusRuntimeException.class, () -> app.start("db", PinnedPod.oneWholeCpu()));
      assertEquals(
          Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode(), refused::toString);
      String why = String.valueOf(refused.getStatus().getDescription());
      assertTrue(why.contains("no suitable balloon instance available"), why);
      assertTrue(why.contains("MaxBalloons 1"), why);
      LOG.info("container beyond MaxBalloons refused as expected: {}", refused.getStatus());
      assertCpus("1", app.placement(web), "pinned container after the refusal");
      assertCpus("0", system.placement(dns), "kube-system container after the refusal");

      // The balloon goes with its last container, so the whole-CPU container fits now.
      app.remove(web);
      String db = app.start("db", PinnedPod.oneWholeCpu());
      assertCpus("1", app.placement(db), "whole-CPU container in a new pinned balloon");
    }
  }
}
