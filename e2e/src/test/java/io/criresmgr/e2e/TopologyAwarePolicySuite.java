package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.assertCpus;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/cri-resmgr} with {@code sample-configs/topology-aware-policy.cfg} in front of a real
 * containerd on this 2-CPU node: the reserved 750m become CPU 0, which kube-system containers get;
 * other containers share CPU 1; a container asking for a whole CPU is refused, because taking CPU 1
 * would leave the shared container on it without a CPU (a busy pool keeps a shared CPU). The
 * containers read what they were given in {@code /.cri-resmgr/resources.sh}. Checked in the node's
 * cgroups and in the containers' processes, on this host ({@link TopologyAwarePolicyIT}) and in the
 * VM bed ({@link TopologyAwarePolicyVmIT}). Skipped like {@link CrictlWorkflowIT}, and when the
 * node does not have exactly CPUs 0-1 online.
 */
@Tag("e2e")
abstract class TopologyAwarePolicySuite {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyAwarePolicySuite.class);
  private static final Path SAMPLE =
      ResmgrBed.MODULE_DIR.getParent().resolve("sample-configs/topology-aware-policy.cfg");

  @BeforeAll
  static void startDaemon(SuiteBed bed) throws Exception {
    bed.requireCpus01();
    bed.startDaemon(config());
  }

  /** The sample, verbatim but for the HTTP port: a free one, so parallel runs do not collide. */
  private static String config() throws IOException {
    String sample = Files.readString(SAMPLE, StandardCharsets.UTF_8);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String changed = sample.replace("HTTPEndpoint: :8891", "HTTPEndpoint: 127.0.0.1:" + port);
    if (changed.equals(sample)) {
      throw new IllegalStateException(SAMPLE + " no longer sets HTTPEndpoint: :8891");
    }
    return changed;
  }

  @Test
  void reservedCpuForKubeSystemSharedCpuForTheRestAndNoExclusiveCpuThatEmptiesThePool(SuiteBed bed)
      throws Exception {
    ResmgrDaemon daemon = bed.daemon();
    String name = podName("ta");
    Path logs = bed.logDir(name);
    try (CriClient cri = new CriClient(daemon.relaySocket());
        PinnedPod system = ResmgrBed.runKubeSystemPod(cri, name, logs, bed.node());
        PinnedPod app =
            PinnedPod.run(
                cri, WorkflowSpec.guaranteed(name, logs, WorkflowSpec.NAMESPACE), bed.node())) {
      String dns = system.start("dns", PinnedPod.halfCpuShared());
      assertCpus("0", system.placement(dns), "kube-system container on the reserved CPU");

      String web = app.start("web", PinnedPod.halfCpuShared());
      assertCpus("1", app.placement(web), "shared container");
      // What it was given, as the container itself reads it (docs/exported-resources.md).
      String exported = app.exec(web, "cat", "/.cri-resmgr/resources.sh");
      assertTrue(exported.contains("SHARED_CPUS=\"1\"\n"), exported);
      assertTrue(exported.contains("ALL_MEMS=\""), exported);
      String reserved = system.exec(dns, "cat", "/.cri-resmgr/resources.sh");
      assertTrue(reserved.contains("SHARED_CPUS=\"0\"\n"), reserved);

      StatusRuntimeException refused =
          assertThrows(
              StatusRuntimeException.class, () -> app.start("db", PinnedPod.oneWholeCpu()));
      assertNotEquals(Status.Code.OK, refused.getStatus().getCode());
      String why = String.valueOf(refused.getStatus().getDescription());
      assertTrue(
          why.contains("a pool whose shared CPUs containers use keeps at least one of them"), why);
      LOG.info("whole-CPU container refused as expected: {}", refused.getStatus());
      assertCpus("1", app.placement(web), "shared container after the refusal");
      assertCpus("0", system.placement(dns), "kube-system container after the refusal");
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", daemon.log());
      throw e;
    }
  }
}
