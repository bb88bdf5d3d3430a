package io.criresmgr.proxy.core;

import static io.criresmgr.proxy.core.PipelineHarness.containerById;
import static io.criresmgr.proxy.core.PipelineHarness.cpus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decisions that change other containers (the CRI controller's UpdateContainerResources for them),
 * with a policy that shares CPUs 0..n-1 among all n active containers.
 */
class PolicyUpdatesIT {
  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
    startDaemon();
  }

  private void startDaemon() throws InterruptedException {
    h.startDaemon(GrowingPoolTestPolicy.NAME, false, new GrowingPoolTestPolicy.Provider());
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void updatesOfOtherContainersReachTheRuntimeBeforeTheCreateAndInDecisionOrder() throws Exception {
    String pod = h.runPod("web");
    h.runtime().hooks().setLatency("UpdateContainerResources", Duration.ofMillis(100));
    String a = h.create(pod, "a");
    assertEquals("0", h.cpuset(a));
    String b = h.create(pod, "b");
    assertEquals(List.of("0-1", "0-1"), List.of(h.cpuset(a), h.cpuset(b)));
    String c = h.createAndStart(pod, "c");
    assertEquals(List.of("0-2", "0-2", "0-2"), List.of(h.cpuset(a), h.cpuset(b), h.cpuset(c)));
    assertEquals(List.of("0-1", "0-2"), updatesOf(a));
    assertEquals(List.of("0-2"), updatesOf(b));

    h.stop(c);
    h.awaitCpuset(a, "0-1");
    h.awaitCpuset(b, "0-1");
    JsonNode cache =
        h.awaitCache(
            "the shrunk pool",
            x -> cpus(x, a).equals("0-1") && containerById(x, a).path("Pending").isEmpty());
    assertEquals("0-1", cpus(cache, b));
  }

  private List<String> updatesOf(String id) {
    return h
        .runtime()
        .hooks()
        .requests("UpdateContainerResources", UpdateContainerResourcesRequest.class)
        .stream()
        .filter(r -> r.getContainerId().equals(id))
        .map(r -> r.getLinux().getCpusetCpus())
        .toList();
  }

  @Test
  void aFailedUpdateStaysPendingInTheCacheAndARestartEnforcesIt() throws Exception {
    String pod = h.runPod("web");
    String a = h.createAndStart(pod, "a");
    h.runtime()
        .hooks()
        .failNext("UpdateContainerResources", Status.UNAVAILABLE.withDescription("busy"));

    String b = h.create(pod, "b");

    assertEquals(List.of("0", "0-1"), List.of(h.cpuset(a), h.cpuset(b)));
    JsonNode cache =
        h.awaitCache(
            "a pending", x -> containerById(x, a).path("Pending").toString().equals("[\"cri\"]"));
    assertEquals("0-1", cpus(cache, a));
    h.stopDaemon();
    h.runtime().hooks().reset();

    startDaemon();

    h.awaitCpuset(a, "0-1");
    cache = h.awaitCache("a enforced", x -> containerById(x, a).path("Pending").isEmpty());
    assertEquals("0-1", cpus(cache, a));
    assertTrue(updatesOf(b).isEmpty(), "b was enforced already: " + updatesOf(b));
  }
}
