package io.criresmgr.e2e;

import static io.criresmgr.e2e.ResmgrBed.assertCpus;
import static io.criresmgr.e2e.ResmgrBed.podName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * cgroups and in the containers' processes, on this host ({@link TopologyAwarePolicyIT}), in the VM
 * bed ({@link TopologyAwarePolicyVmIT}) and there with the daemon in NRI mode ({@link
 * TopologyAwarePolicyNriVmIT}). Skipped like {@link CrictlWorkflowIT}, and when the node does not
 * have exactly CPUs 0-1 online.
 */
@Tag("e2e")
abstract class TopologyAwarePolicySuite {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyAwarePolicySuite.class);
  private static final ObjectMapper JSON = new ObjectMapper();
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

  /**
   * Native sidecars on real containerd (docs/webhook.md): an init container the webhook lists under
   * {@code sidecars} keeps its shared CPU when the pod's next container is created, so a whole-CPU
   * container that would empty the pool is refused; an ordinary init container is released then,
   * and the same container gets CPU 1.
   */
  @Test
  void aSidecarKeepsItsSharedCpuAnOrdinaryInitContainerDoesNot(SuiteBed bed) throws Exception {
    ResmgrDaemon daemon = bed.daemon();
    try (CriClient cri = new CriClient(daemon.relaySocket())) {
      String name = podName("init");
      try (PinnedPod pod = podWithInit(cri, bed, name, false)) {
        String setup = pod.start("setup", halfCpu());
        assertCpus("1", pod.placement(setup), "init container");
        String app = pod.start("app", PinnedPod.oneWholeCpu());
        assertCpus("1", pod.placement(app), "app after its init container was released");
        String exported = pod.exec(app, "cat", "/.cri-resmgr/resources.sh");
        assertTrue(exported.contains("EXCLUSIVE_CPUS=\"1\"\n"), exported);
      }
      name = podName("sidecar");
      try (PinnedPod pod = podWithInit(cri, bed, name, true)) {
        String proxy = pod.start("proxy", halfCpu());
        assertCpus("1", pod.placement(proxy), "sidecar");
        StatusRuntimeException refused =
            assertThrows(
                StatusRuntimeException.class, () -> pod.start("app", PinnedPod.oneWholeCpu()));
        String why = String.valueOf(refused.getStatus().getDescription());
        assertTrue(
            why.contains("a pool whose shared CPUs containers use keeps at least one of them"),
            why);
        assertCpus("1", pod.placement(proxy), "sidecar after the refusal");
      }
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", daemon.log());
      throw e;
    }
  }

  /**
   * Device hints from the node's own sysfs (docs/topology.md, "Device hints"): a container given
   * the node's first disk is stored in the cache with that disk's hint, the local CPUs of its PCI
   * device (0-1 on these one-node beds, so the hint cannot move it).
   */
  @Test
  void aContainerWithAHostDiskIsStoredWithTheDisksTopologyHint(SuiteBed bed) throws Exception {
    ResmgrDaemon daemon = bed.daemon();
    String name = podName("dev");
    String disk = "/dev/" + firstDisk(bed.readIfExists(Path.of("/proc/partitions")));
    try (CriClient cri = new CriClient(daemon.relaySocket());
        PinnedPod pod =
            PinnedPod.run(
                cri,
                WorkflowSpec.guaranteed(name, bed.logDir(name), WorkflowSpec.NAMESPACE),
                bed.node())) {
      String id = pod.startWithDevices("disk", halfCpu(), List.of(disk));
      assertCpus("1", pod.placement(id), "container with a disk");
      JsonNode hints = awaitCachedHints(bed, daemon, name + "-uid:disk");
      assertEquals(1, hints.size(), hints.toString());
      assertEquals(disk, hints.get(0).path("Provider").asText(), hints.toString());
      assertEquals("0-1", hints.get(0).path("CPUs").asText(), hints.toString());
    } catch (AssertionError | RuntimeException e) {
      LOG.error("cri-resmgr's log:\n{}", daemon.log());
      throw e;
    }
  }

  /** The first whole disk of {@code /proc/partitions} that is not a RAM, loop or mapped one. */
  static String firstDisk(String partitions) {
    return partitions
        .lines()
        .skip(1)
        .map(String::strip)
        .filter(l -> !l.isEmpty())
        .map(l -> l.split("\\s+"))
        .filter(f -> f.length == 4 && f[1].equals("0"))
        .map(f -> f[3])
        .filter(n -> !n.matches("(zram|loop|ram|dm-|md|nbd|sr).*"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no disk in /proc/partitions:\n" + partitions));
  }

  /**
   * The {@code TopologyHints} of {@code cacheId} once the daemon's cache file or its journal
   * (docs/cache-format.md, "The journal") holds them.
   */
  private static JsonNode awaitCachedHints(SuiteBed bed, ResmgrDaemon daemon, String cacheId)
      throws Exception {
    Path file = daemon.relayDir().resolve("cache");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      String text = bed.readIfExists(file);
      JsonNode hints =
          text.isEmpty()
              ? null
              : JSON.readTree(text).path("Containers").path(cacheId).get("TopologyHints");
      for (String line : bed.readIfExists(file.resolveSibling("cache.journal")).lines().toList()) {
        JsonNode put = journalPut(line, cacheId);
        if (put.has("TopologyHints")) {
          hints = put.get("TopologyHints"); // the journal's latest batch for it wins
        }
      }
      if (hints != null && hints.size() > 0) {
        return hints;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no TopologyHints of " + cacheId + " in " + file + ":\n" + text);
      }
      Thread.sleep(200);
    }
  }

  /** What a journal line puts for {@code cacheId}; a missing node if nothing (or a torn line). */
  private static JsonNode journalPut(String line, String cacheId) {
    int batch = line.indexOf('{');
    try {
      return batch < 0
          ? MissingNode.getInstance()
          : JSON.readTree(line.substring(batch)).path("Put").path("Containers").path(cacheId);
    } catch (IOException e) {
      return MissingNode.getInstance(); // being written
    }
  }

  /** Half a CPU, request = limit: a fractional Guaranteed container, which shares. */
  private static LinuxContainerResources halfCpu() {
    return PinnedPod.oneWholeCpu().toBuilder().setCpuShares(512).setCpuQuota(50_000).build();
  }

  /**
   * A Guaranteed pod annotated as the webhook annotates it: init container {@code setup} (or {@code
   * proxy}, listed as a sidecar) and container {@code app} of one CPU.
   */
  private static PinnedPod podWithInit(CriClient cri, SuiteBed bed, String name, boolean sidecar)
      throws IOException {
    String init = sidecar ? "proxy" : "setup";
    String resources =
        "{\"initContainers\":{\""
            + init
            + "\":{\"requests\":{\"cpu\":\"500m\"},\"limits\":{\"cpu\":\"500m\"}}},"
            + "\"containers\":{\"app\":{\"requests\":{\"cpu\":\"1\"},\"limits\":{\"cpu\":\"1\"}}}"
            + (sidecar ? ",\"sidecars\":[\"proxy\"]}" : "}");
    return PinnedPod.run(
        cri,
        WorkflowSpec.guaranteed(name, bed.logDir(name), WorkflowSpec.NAMESPACE),
        Map.of("resources.cri-resource-manager.intel.com", resources),
        bed.node());
  }
}
