package io.criresmgr.proxy.core;

import static io.criresmgr.proxy.core.PipelineHarness.cpus;
import static io.criresmgr.proxy.core.PipelineHarness.state;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Intercepted requests of kubelet through a real daemon with the exclusive-CPU test policy, checked
 * on the runtime side (requests it received, container status) and in the cache file.
 */
class PipelineLifecycleIT {
  @TempDir Path dir;
  private PipelineHarness h;

  @BeforeEach
  void start() throws Exception {
    h = new PipelineHarness(dir);
    h.startDaemon();
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void aPodLivesThroughThePipelineAndTheCacheFollowsEveryStep() throws Exception {
    String pod = h.runPod("web");
    h.awaitCache("pod web ready", c -> c.path("Pods").path(pod).path("Ready").asBoolean());

    String c0 = h.create(pod, "c0");
    CreateContainerRequest seen =
        h.runtime()
            .hooks()
            .lastRequest("CreateContainer", CreateContainerRequest.class)
            .orElseThrow();
    LinuxContainerResources sent = seen.getConfig().getLinux().getResources();
    assertEquals("0", sent.getCpusetCpus(), "the policy's CPU goes into CreateContainer");
    assertEquals(128L << 20, sent.getMemoryLimitInBytes(), "kubelet's settings stay");
    assertEquals(1024, sent.getCpuShares());
    assertEquals("0", h.cpuset(c0));
    JsonNode cache = h.awaitCache("c0 created on CPU 0", c -> state(c, c0).equals("CREATED"));
    assertEquals("0", cpus(cache, c0));
    assertEquals(pod, PipelineHarness.containerById(cache, c0).path("PodID").asText());
    assertEquals("uid-web:c0", PipelineHarness.containerById(cache, c0).path("CacheID").asText());

    h.start(c0);
    h.awaitCache("c0 running", c -> state(c, c0).equals("RUNNING"));
    String c1 = h.createAndStart(pod, "c1");
    assertEquals("1", h.cpuset(c1));

    h.stop(c0);
    h.awaitCache("c0 exited", c -> state(c, c0).equals("EXITED"));
    String c2 = h.create(pod, "c2");
    assertEquals("0", h.cpuset(c2), "the stopped container's CPU is free again");

    h.remove(c0);
    h.awaitCache("c0 removed", c -> state(c, c0).isEmpty() && state(c, c2).equals("CREATED"));

    h.relay().stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(pod).build());
    cache =
        h.awaitCache(
            "pod stopped",
            c ->
                !c.path("Pods").path(pod).path("Ready").asBoolean(true)
                    && state(c, c1).equals("EXITED")
                    && state(c, c2).equals("EXITED"));
    assertEquals(2, cache.path("Containers").size(), cache.toPrettyString());

    String other = h.runPod("other");
    assertEquals("0", h.cpuset(h.create(other, "x")), "the stopped pod's CPUs are free");

    h.relay().removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(pod).build());
    cache =
        h.awaitCache(
            "pod removed",
            c -> !c.path("Pods").has(pod) && state(c, c1).isEmpty() && state(c, c2).isEmpty());
    assertEquals(1, cache.path("Pods").size(), cache.toPrettyString());
    assertEquals(1, cache.path("Containers").size(), cache.toPrettyString());
    assertEquals(ExclusiveCpusTestPolicyProvider.NAME, cache.path("PolicyName").asText());
    PipelineInvariants.awaitHold(h.runtimeChannel(), h.cacheFile(), PipelineHarness.CACHE_WAIT);
  }

  @Test
  void aRecreatedPodDropsTheOldPodsContainersAndARecreatedContainerReleasesTheOldOne()
      throws Exception {
    String first = h.runPod(PipelineHarness.podConfig("web", "uid-web", 0), h.relay());
    String app = h.createAndStart(first, "app");
    String side = h.createAndStart(first, "side");
    assertEquals(List.of("0", "1"), List.of(h.cpuset(app), h.cpuset(side)));
    // kubelet re-creates a sandbox only once the old one's containers are gone (here they exited
    // without the daemon seeing it: it asks the runtime); see CacheKeysIT for live ones.
    h.runtime().exitContainer(app, 0);
    h.runtime().exitContainer(side, 0);

    String second = h.runPod(PipelineHarness.podConfig("web", "uid-web", 1), h.relay());
    JsonNode cache =
        h.awaitCache(
            "the old sandbox dropped",
            c -> c.path("Pods").has(second) && !c.path("Pods").has(first));
    assertEquals(0, cache.path("Containers").size(), cache.toPrettyString());

    String app2 = h.create(second, "app");
    assertEquals("0", h.cpuset(app2), "the old pod's CPUs are free");
    String app3 = h.create(second, "app", 1);
    assertEquals("0", h.cpuset(app3), "the old container is released before the new allocation");
    String side2 = h.create(second, "side");
    assertEquals("1", h.cpuset(side2));
    cache =
        h.awaitCache(
            "one container per name",
            c -> state(c, app3).equals("CREATED") && state(c, side2).equals("CREATED"));
    assertEquals(2, cache.path("Containers").size(), cache.toPrettyString());
    assertEquals(app3, cache.path("Containers").path("uid-web:app").path("ID").asText());
    assertEquals("", state(cache, app2));
  }

  @Test
  void anUnfilteredListingDetectsAnExitedContainerAndAFilteredOneDoesNot() throws Exception {
    String pod = h.runPod("job");
    String c0 = h.createAndStart(pod, "c0");
    h.awaitCache("c0 running", c -> state(c, c0).equals("RUNNING"));
    h.runtime().exitContainer(c0, 0);

    var filtered =
        h.relay()
            .listContainers(
                ListContainersRequest.newBuilder()
                    .setFilter(ContainerFilter.newBuilder().setPodSandboxId(pod))
                    .build());
    assertEquals(ContainerState.CONTAINER_EXITED, filtered.getContainers(0).getState());
    JsonNode cache = h.barrier();
    assertEquals("RUNNING", state(cache, c0), "a filtered listing must not release");
    assertEquals("1", h.cpuset(h.create(pod, "c1")), "CPU 0 is still held");

    h.relay().listContainers(ListContainersRequest.getDefaultInstance());
    h.awaitCache("c0 exited", c -> state(c, c0).equals("EXITED"));
    assertEquals("0", h.cpuset(h.create(pod, "c2")), "the exited container's CPU is free");
  }

  @Test
  void kubeletGetsTheRuntimesListingByteForByteAndExitsAreStillDetected() throws Exception {
    String pod = h.runPod("list");
    String c0 = h.createAndStart(pod, "c0");
    String c1 = h.createAndStart(pod, "c1");
    h.awaitCache("c1 running", c -> state(c, c1).equals("RUNNING"));
    h.runtime().exitContainer(c0, 0);
    byte[] request = ListContainersRequest.getDefaultInstance().toByteArray();

    byte[] relayed = rawList(h.relayChannel(), request);
    byte[] direct = rawList(h.runtimeChannel(), request);

    assertArrayEquals(direct, relayed);
    assertEquals(2, ListContainersResponse.parseFrom(relayed).getContainersCount());
    h.awaitCache("c0 exited", c -> state(c, c0).equals("EXITED"));
    assertEquals("RUNNING", state(h.barrier(), c1));
  }

  private static byte[] rawList(Channel channel, byte[] request) {
    return ClientCalls.blockingUnaryCall(
        channel,
        RawMarshaller.descriptor(RuntimeServiceGrpc.getListContainersMethod().getFullMethodName()),
        CallOptions.DEFAULT,
        request);
  }

  @Test
  void kubeletsUpdateIsForwardedMergedWithThePolicysDecision() throws Exception {
    String pod = h.runPod("db");
    String c0 = h.createAndStart(pod, "c0");
    h.relay()
        .updateContainerResources(
            UpdateContainerResourcesRequest.newBuilder()
                .setContainerId(c0)
                .setLinux(
                    LinuxContainerResources.newBuilder()
                        .setCpuShares(2048)
                        .setCpuPeriod(100_000)
                        .setCpuQuota(200_000)
                        .setMemoryLimitInBytes(512L << 20)
                        .setCpusetCpus("3-4"))
                .build());
    var forwarded =
        h.runtime()
            .hooks()
            .lastRequest("UpdateContainerResources", UpdateContainerResourcesRequest.class)
            .orElseThrow()
            .getLinux();
    assertEquals(512L << 20, forwarded.getMemoryLimitInBytes(), "kubelet's memory limit");
    assertEquals(2048, forwarded.getCpuShares(), "kubelet's shares");
    assertEquals(200_000, forwarded.getCpuQuota(), "kubelet's quota");
    assertEquals("0", forwarded.getCpusetCpus(), "the policy's cpuset wins");
    var status =
        h.direct()
            .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(c0).build())
            .getStatus()
            .getResources()
            .getLinux();
    assertEquals("0", status.getCpusetCpus());
    assertEquals(512L << 20, status.getMemoryLimitInBytes());
    JsonNode cache =
        h.awaitCache(
            "the new request",
            c ->
                PipelineHarness.containerById(c, c0)
                        .path("LinuxReq")
                        .path("MemoryLimitInBytes")
                        .asLong()
                    == 512L << 20);
    assertEquals("0", cpus(cache, c0));
    assertTrue(PipelineHarness.containerById(cache, c0).path("Pending").isEmpty());
  }

  @Test
  void aFailedCreateReachesTheClientAndItsReservationIsRolledBack() throws Exception {
    String pod = h.runPod("flaky");
    h.runtime()
        .hooks()
        .failNext("CreateContainer", Status.UNAVAILABLE.withDescription("runtime is restarting"));
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> h.create(pod, "c0"));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertEquals("runtime is restarting", e.getStatus().getDescription());

    JsonNode cache = h.barrier();
    assertFalse(cache.path("Containers").has("uid-flaky:c0"), cache.toPrettyString());
    String c0 = h.create(pod, "c0");
    assertEquals("0", h.cpuset(c0), "the rolled-back reservation's CPU is given again");
    List<String> sent = new ArrayList<>();
    for (var r : h.runtime().hooks().requests("CreateContainer", CreateContainerRequest.class)) {
      sent.add(r.getConfig().getLinux().getResources().getCpusetCpus());
    }
    assertEquals(List.of("0", "0"), sent);
  }
}
