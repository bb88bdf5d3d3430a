package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.AttachRequest;
import io.criresmgr.api.runtime.v1.CgroupDriver;
import io.criresmgr.api.runtime.v1.ContainerStats;
import io.criresmgr.api.runtime.v1.ContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ExecRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ListMetricDescriptorsRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxMetricsRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStats;
import io.criresmgr.api.runtime.v1.PodSandboxStatsRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.PortForwardRequest;
import io.criresmgr.api.runtime.v1.ReopenContainerLogRequest;
import io.criresmgr.api.runtime.v1.RuntimeCondition;
import io.criresmgr.api.runtime.v1.RuntimeConfigRequest;
import io.criresmgr.api.runtime.v1.StatusRequest;
import io.criresmgr.api.runtime.v1.UpdatePodSandboxResourcesRequest;
import io.criresmgr.api.runtime.v1.UpdateRuntimeConfigRequest;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Version, Status, RuntimeConfig, stats, streaming URLs and the other small RPCs. */
class SimRuntimeInfoTest {
  private final InProcessSim env = new InProcessSim();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void versionStatusAndConfig() {
    VersionResponse version = env.runtime.version(VersionRequest.getDefaultInstance());
    assertEquals("0.1.0", version.getVersion());
    assertEquals("cri-resmgr-sim-runtime", version.getRuntimeName());
    assertEquals("0.1.0", version.getRuntimeVersion());
    assertEquals("v1", version.getRuntimeApiVersion());

    List<RuntimeCondition> conditions =
        env.runtime.status(StatusRequest.getDefaultInstance()).getStatus().getConditionsList();
    assertEquals(
        List.of("RuntimeReady", "NetworkReady"),
        conditions.stream().map(RuntimeCondition::getType).toList());
    assertTrue(conditions.stream().allMatch(RuntimeCondition::getStatus));

    assertEquals(
        CgroupDriver.CGROUPFS,
        env.runtime
            .runtimeConfig(RuntimeConfigRequest.getDefaultInstance())
            .getLinux()
            .getCgroupDriver());
    env.runtime.updateRuntimeConfig(UpdateRuntimeConfigRequest.getDefaultInstance());
    assertEquals(
        0,
        env.runtime
            .listMetricDescriptors(ListMetricDescriptorsRequest.getDefaultInstance())
            .getDescriptorsCount());
    assertEquals(
        0,
        env.runtime
            .listPodSandboxMetrics(ListPodSandboxMetricsRequest.getDefaultInstance())
            .getPodMetricsCount());
  }

  @Test
  void runtimeNameIsConfigurable() {
    try (SimRuntime sim = new SimRuntime(SimOptions.defaults().withRuntimeName("containerd"))) {
      RecordingObserver<VersionResponse> observer = new RecordingObserver<>();
      sim.runtimeService().version(VersionRequest.getDefaultInstance(), observer);
      assertEquals("containerd", assertNext(observer).getRuntimeName());
    }
  }

  @Test
  void statsAreZeroButWellFormed() {
    String id = env.runningContainer("web");
    String pod = env.podOf(id);
    long now = env.clock.nanos();
    ContainerStats stats =
        env.runtime
            .containerStats(ContainerStatsRequest.newBuilder().setContainerId(id).build())
            .getStats();
    assertEquals(id, stats.getAttributes().getId());
    assertEquals("c0", stats.getAttributes().getMetadata().getName());
    assertEquals(now, stats.getCpu().getTimestamp());
    assertTrue(stats.getCpu().hasUsageCoreNanoSeconds());
    assertEquals(0, stats.getMemory().getWorkingSetBytes().getValue());
    assertEquals(
        List.of(stats),
        env.runtime
            .listContainerStats(ListContainerStatsRequest.getDefaultInstance())
            .getStatsList());

    PodSandboxStats podStats =
        env.runtime
            .podSandboxStats(PodSandboxStatsRequest.newBuilder().setPodSandboxId(pod).build())
            .getStats();
    assertEquals(pod, podStats.getAttributes().getId());
    assertEquals("eth0", podStats.getLinux().getNetwork().getDefaultInterface().getName());
    assertEquals(List.of(stats), podStats.getLinux().getContainersList());
    assertEquals(
        List.of(podStats),
        env.runtime
            .listPodSandboxStats(ListPodSandboxStatsRequest.getDefaultInstance())
            .getStatsList());
  }

  @Test
  void streamingEndpointsReturnUrls() {
    String id = env.runningContainer("web");
    String pod = env.podOf(id);
    String exec =
        env.runtime
            .exec(ExecRequest.newBuilder().setContainerId(id).addCmd("sh").setStdout(true).build())
            .getUrl();
    assertEquals("http://127.0.0.1:10010/exec/" + id.substring(0, 12), exec);
    String attach =
        env.runtime
            .attach(AttachRequest.newBuilder().setContainerId(id).setStdout(true).build())
            .getUrl();
    assertEquals("http://127.0.0.1:10010/attach/" + id.substring(0, 12), attach);
    String forward =
        env.runtime
            .portForward(PortForwardRequest.newBuilder().setPodSandboxId(pod).addPort(80).build())
            .getUrl();
    assertEquals("http://127.0.0.1:10010/portforward/" + pod.substring(0, 12), forward);
    env.runtime.reopenContainerLog(
        ReopenContainerLogRequest.newBuilder().setContainerId(id).build());
  }

  @Test
  void podStatusListsContainersAndPodResourcesUpdate() {
    String id = env.runningContainer("web");
    String pod = env.podOf(id);
    env.runtime.updatePodSandboxResources(
        UpdatePodSandboxResourcesRequest.newBuilder()
            .setPodSandboxId(pod)
            .setResources(LinuxContainerResources.newBuilder().setCpuShares(2048))
            .build());
    PodSandboxStatusResponse status =
        env.runtime.podSandboxStatus(
            PodSandboxStatusRequest.newBuilder().setPodSandboxId(pod).build());
    assertEquals(id, status.getContainersStatuses(0).getId());
    assertEquals(env.clock.nanos(), status.getTimestamp());
  }

  private static <T> T assertNext(RecordingObserver<T> observer) {
    try {
      return observer.next();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
