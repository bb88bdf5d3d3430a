package io.criresmgr.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.testkit.InProcessDaemon;
import io.criresmgr.testkit.KubeletClient;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import io.criresmgr.webhook.admission.JsonPatchApplier;
import io.criresmgr.webhook.admission.NotAnAdmissionReviewException;
import io.criresmgr.webhook.admission.Pods;
import io.criresmgr.webhook.admission.ResourceAnnotation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7's "done when": the webhook's annotation drives memory requests in the policies. The
 * webhook's real mutation annotates a pod whose container asks for 3 GiB of memory with no memory
 * limit; the pod then runs through the real daemon with the topology-aware policy on a node whose
 * NUMA nodes have 2 GiB each. Kubelet's CRI request carries no memory request, so only the
 * annotation can tell the policy that the container needs more than one NUMA node. The container
 * has a CPU limit: a Burstable container without one goes to the {@code UnlimitedBurstable} level
 * (a socket by default) whatever its memory.
 */
class WebhookAnnotationPolicyIT {
  /** 2 sockets × 2 NUMA nodes, 2 GiB and 2 cores (4 CPUs) each. */
  private static final String TOPOLOGY =
      "[{\"mem\":\"2G\",\"cores\":2,\"nodes\":2,\"packages\":2}]";

  /** A Burstable pod: requests of 1 CPU and 3 GiB, a CPU limit of 2, no memory limit. */
  private static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod",
       "metadata":{"name":"pod0","namespace":"default"},
       "spec":{"containers":[{"name":"c0","image":"busybox",
         "resources":{"requests":{"cpu":"1","memory":"3Gi"},"limits":{"cpu":"2"}}}]}}
      """;

  /** Kubelet's cpu.shares for a request of 1 CPU. */
  private static final long SHARES_OF_ONE_CPU = 1024;

  /**
   * What kubelet sends for a request of 1 CPU and a limit of 2: shares, the quota of 2 CPUs, no
   * memory limit.
   */
  private static final LinuxContainerResources KUBELET_REQUEST =
      LinuxContainerResources.newBuilder()
          .setCpuShares(SHARES_OF_ONE_CPU)
          .setCpuPeriod(100_000)
          .setCpuQuota(200_000)
          .build();

  @TempDir Path dir;
  private @Nullable InProcessDaemon daemon;
  private @Nullable KubeletClient kubelet;

  @BeforeEach
  void start() throws Exception {
    InProcessDaemon started =
        InProcessDaemon.start(dir, TopologySpec.parse(TOPOLOGY), "topology-aware");
    daemon = started;
    kubelet = new KubeletClient(started.relaySocket(), started.runtimeSocket());
  }

  @AfterEach
  void stop() {
    if (kubelet != null) {
      kubelet.close();
    }
    if (daemon != null) {
      daemon.close();
    }
  }

  /** Runs Burstable pod {@code pod} with {@code annotations} and its container c0; the mems. */
  private CpuSet memsOf(String pod, Map<String, String> annotations) {
    KubeletClient k = java.util.Objects.requireNonNull(kubelet);
    String id =
        k.run(
            pod,
            annotations,
            "/kubepods/burstable/poduid-" + pod,
            "c0",
            InProcessDaemon.IMAGE,
            KUBELET_REQUEST);
    return CpuSet.parse(k.resources(id).getCpusetMems());
  }

  @Test
  void theAnnotatedRequestGetsMemoryOfMoreThanOneNumaNode() {
    Map<String, String> annotations = admittedAnnotations(POD);
    assertTrue(annotations.containsKey(ResourceAnnotation.KEY), annotations.toString());

    CpuSet mems = memsOf("pod0", annotations);
    assertTrue(mems.size() > 1, "3 GiB in 2 GiB nodes needs several, got mems " + mems);
  }

  @Test
  void withoutTheAnnotationTheSameContainerGetsOneNumaNode() {
    CpuSet mems = memsOf("pod1", Map.of());
    assertEquals(1, mems.size(), "no memory request seen, a leaf pool: mems " + mems);
  }

  /** The pod's annotations after the webhook's JSONPatch, as the API server would store them. */
  private static Map<String, String> admittedAnnotations(String podJson) {
    JsonNode pod = Pods.json(podJson);
    byte[] request = Pods.review("uid-0", "CREATE", pod).getBytes(StandardCharsets.UTF_8);
    JsonNode response = Pods.json(new String(review(request), StandardCharsets.UTF_8));
    assertEquals("JSONPatch", response.path("response").path("patchType").asText());
    String patch = response.path("response").path("patch").asText();
    JsonNode ops = Pods.json(new String(Base64.getDecoder().decode(patch), StandardCharsets.UTF_8));
    JsonNode patched = JsonPatchApplier.apply(pod, ops);
    Map<String, String> annotations = new TreeMap<>();
    patched
        .path("metadata")
        .path("annotations")
        .properties()
        .forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
    assertFalse(annotations.isEmpty(), "the webhook added no annotation: " + patched);
    return annotations;
  }

  private static byte[] review(byte[] request) {
    try {
      return new AdmissionReviewer().review(request);
    } catch (NotAnAdmissionReviewException e) {
      throw new AssertionError(e);
    }
  }
}
