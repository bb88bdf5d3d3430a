package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerEventResponse;
import io.criresmgr.api.runtime.v1.ContainerEventType;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.GetEventsRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the resource-management pipeline's tests rely on: start-up reconciliation, exits. */
class SimPipelineSupportTest {
  private static final String CGROUP_PARENT = "kubepods-burstable-poduid_web.slice";

  private final InProcessSim env = new InProcessSim();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void verbosePodStatusCarriesContainerdsInfoWithTheCgroupParent() throws Exception {
    String pod = runPodWithCgroupParent("web", CGROUP_PARENT);
    PodSandboxStatusResponse verbose = podStatus(pod, true);

    JsonNode info = new ObjectMapper().readTree(verbose.getInfoOrThrow("info"));
    assertEquals(CGROUP_PARENT, info.at("/config/linux/cgroup_parent").asText());
    assertEquals("web", info.at("/config/metadata/name").asText());
    assertEquals("uid-web", info.at("/config/metadata/uid").asText());
    assertEquals("default", info.at("/config/metadata/namespace").asText());
    assertEquals("web", info.at("/config/labels/app").asText());
    assertEquals("running", info.get("processStatus").asText());

    assertEquals(0, podStatus(pod, false).getInfoCount(), "info only when verbose");
  }

  @Test
  void verboseInfoOfAStoppedPodSaysSo() throws Exception {
    String pod = runPodWithCgroupParent("web", CGROUP_PARENT);
    env.runtime.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(pod).build());
    JsonNode info = new ObjectMapper().readTree(podStatus(pod, true).getInfoOrThrow("info"));
    assertEquals("stopped", info.get("processStatus").asText());
    assertTrue(info.get("netNamespaceClosed").asBoolean());
  }

  @Test
  void verboseContainerStatusCarriesTheOciSpecWithDevicesByNumberAndBindMounts() throws Exception {
    env.pull("busybox");
    CreateContainerRequest request =
        InProcessSim.createRequest(
            env.runPod("web"), "c0", "busybox", LinuxContainerResources.getDefaultInstance());
    ContainerConfig config =
        request.getConfig().toBuilder()
            .addDevices(
                Device.newBuilder()
                    .setHostPath("/dev/null")
                    .setContainerPath("/dev/nil")
                    .setPermissions("rw"))
            .addDevices(Device.newBuilder().setHostPath("/no/such").setContainerPath("/dev/x"))
            .addMounts(
                Mount.newBuilder().setHostPath("/srv").setContainerPath("/srv").setReadonly(true))
            .build();
    String id =
        env.runtime.createContainer(request.toBuilder().setConfig(config).build()).getContainerId();
    ContainerStatusResponse verbose =
        env.runtime.containerStatus(
            ContainerStatusRequest.newBuilder().setContainerId(id).setVerbose(true).build());

    JsonNode spec = new ObjectMapper().readTree(verbose.getInfoOrThrow("info")).get("runtimeSpec");
    assertEquals(
        "[{\"path\":\"/dev/nil\",\"type\":\"c\",\"major\":1,\"minor\":3}]",
        spec.at("/linux/devices").toString(),
        "/dev/null by its number; a path without a device is left out");
    assertEquals(
        "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rw\"}",
        spec.at("/linux/resources/devices/1").toString());
    assertEquals(
        "{\"destination\":\"/srv\",\"type\":\"bind\",\"source\":\"/srv\","
            + "\"options\":[\"rbind\",\"rprivate\",\"ro\"]}",
        spec.at("/mounts/1").toString());
    assertEquals(0, status(id, false).getInfoCount(), "info only when verbose");
  }

  @Test
  void creationTimesFollowCreationOrderEvenWithAStandingClock() {
    env.pull("busybox");
    String pod = env.runPod("web");
    List<String> created = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      created.add(env.createContainer(pod, "c" + i, "busybox", resources("0")));
    }
    List<Container> listed = listAll();
    assertEquals(created, listed.stream().map(Container::getId).toList());
    for (int i = 1; i < listed.size(); i++) {
      assertTrue(
          listed.get(i).getCreatedAt() > listed.get(i - 1).getCreatedAt(),
          "strictly increasing created_at");
    }
    assertTrue(listed.get(0).getCreatedAt() > env.clock.nanos(), "after the pod");
  }

  @Test
  void exitContainerEndsARunningContainerAsACrashWould() throws InterruptedException {
    String id = env.runningContainer("web");
    RecordingObserver<ContainerEventResponse> events = new RecordingObserver<>();
    env.runtimeAsync.getContainerEvents(GetEventsRequest.getDefaultInstance(), events);
    awaitSubscriber();

    env.sim.exitContainer(id, 3);

    Container listed = listAll().get(0);
    assertEquals(ContainerState.CONTAINER_EXITED, listed.getState());
    ContainerStatus status = status(id);
    assertEquals(3, status.getExitCode());
    assertEquals("Error", status.getReason());
    assertEquals(env.clock.nanos(), status.getFinishedAt());
    ContainerEventResponse event = events.next();
    assertEquals(ContainerEventType.CONTAINER_STOPPED_EVENT, event.getContainerEventType());
    assertEquals(id, event.getContainerId());
  }

  @Test
  void onlyRunningContainersCanExit() {
    String id = env.runningContainer("web");
    env.sim.exitContainer(id, 0);
    assertEquals("Completed", status(id).getReason());
    StatusRuntimeException again =
        assertThrows(StatusRuntimeException.class, () -> env.sim.exitContainer(id, 1));
    assertEquals(Status.Code.FAILED_PRECONDITION, again.getStatus().getCode());
    assertTrue(again.getStatus().getDescription().contains(id));
    StatusRuntimeException unknown =
        assertThrows(StatusRuntimeException.class, () -> env.sim.exitContainer("f00d", 1));
    assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
  }

  @Test
  void requestsAreRecordedInOrderWithTheirMessages() {
    env.pull("busybox");
    String pod = env.runPod("web");
    CreateContainerRequest first = InProcessSim.createRequest(pod, "a", "busybox", resources("0"));
    CreateContainerRequest second = InProcessSim.createRequest(pod, "b", "busybox", resources("1"));
    String a = env.runtime.createContainer(first).getContainerId();
    env.runtime.createContainer(second);
    env.runtime.startContainer(StartContainerRequest.newBuilder().setContainerId(a).build());

    SimHooks hooks = env.sim.hooks();
    assertEquals(
        List.of(first, second), hooks.requests("CreateContainer", CreateContainerRequest.class));
    assertEquals(
        List.of(StartContainerRequest.newBuilder().setContainerId(a).build()),
        hooks.requests("StartContainer", StartContainerRequest.class));
    assertThrows(
        ClassCastException.class,
        () -> hooks.requests("StartContainer", CreateContainerRequest.class));
    assertFalse(hooks.requests("RemoveContainer").iterator().hasNext());
  }

  private String runPodWithCgroupParent(String name, String cgroupParent) {
    var config =
        InProcessSim.podConfig(name).toBuilder()
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(cgroupParent))
            .build();
    return env.runtime
        .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
        .getPodSandboxId();
  }

  private PodSandboxStatusResponse podStatus(String pod, boolean verbose) {
    return env.runtime.podSandboxStatus(
        PodSandboxStatusRequest.newBuilder().setPodSandboxId(pod).setVerbose(verbose).build());
  }

  private ContainerStatusResponse status(String id, boolean verbose) {
    return env.runtime.containerStatus(
        ContainerStatusRequest.newBuilder().setContainerId(id).setVerbose(verbose).build());
  }

  private ContainerStatus status(String id) {
    return env.runtime
        .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(id).build())
        .getStatus();
  }

  private List<Container> listAll() {
    return env.runtime
        .listContainers(ListContainersRequest.getDefaultInstance())
        .getContainersList();
  }

  private void awaitSubscriber() throws InterruptedException {
    for (int i = 0; i < 500 && env.sim.eventSubscribers() == 0; i++) {
      Thread.sleep(10);
    }
    assertEquals(1, env.sim.eventSubscribers());
  }

  private static LinuxContainerResources resources(String cpus) {
    return LinuxContainerResources.newBuilder().setCpusetCpus(cpus).build();
  }
}
