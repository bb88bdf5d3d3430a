package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStateValue;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.ExecSyncRequest;
import io.criresmgr.api.runtime.v1.ExecSyncResponse;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.PodSandboxStatus;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The crictl workflow (pull, runp, create, start, inspect, ps, exec, update, stop, rm, stopp, rmp).
 */
class SimRuntimeWorkflowTest {
  private static final long SECOND = 1_000_000_000L;
  private static final LinuxContainerResources CREATED_WITH =
      LinuxContainerResources.newBuilder()
          .setCpusetCpus("1")
          .setCpusetMems("0")
          .setCpuShares(512)
          .setMemoryLimitInBytes(256L << 20)
          .build();
  private static final LinuxContainerResources UPDATED_TO =
      LinuxContainerResources.newBuilder()
          .setCpusetCpus("2-3")
          .setCpuShares(1024)
          .setCpuPeriod(100_000)
          .setCpuQuota(50_000)
          .setMemoryLimitInBytes(512L << 20)
          .putUnified("memory.high", "400000000")
          .build();

  private final InProcessSim env = new InProcessSim();
  private final long start = env.clock.nanos();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void crictlWorkflow() {
    String imageRef = env.pull("busybox");
    assertEquals("sha256:" + ImageRefs.sha256("docker.io/library/busybox:latest"), imageRef);

    String podId = env.runPod("web");
    assertEquals("0".repeat(63) + "1", podId);
    PodSandboxStatus pod = podStatus(podId);
    assertEquals(PodSandboxState.SANDBOX_READY, pod.getState());
    assertEquals(start, pod.getCreatedAt());
    assertEquals("10.88.0.2", pod.getNetwork().getIp());
    assertEquals("web", pod.getLabelsOrThrow("app"));
    assertEquals("pod web", pod.getAnnotationsOrThrow("note"));
    assertEquals("web", pod.getMetadata().getName());

    env.clock.advance(Duration.ofSeconds(1));
    String id = env.createContainer(podId, "app", "busybox", CREATED_WITH);
    ContainerStatus created = status(id);
    assertEquals(ContainerState.CONTAINER_CREATED, created.getState());
    assertEquals(start + SECOND, created.getCreatedAt());
    assertEquals(0, created.getStartedAt());
    assertEquals("busybox", created.getImage().getImage());
    assertEquals(imageRef, created.getImageId());
    assertTrue(created.getImageRef().startsWith("docker.io/library/busybox@sha256:"));
    assertEquals("/var/log/pods/default_web/app/0.log", created.getLogPath());
    assertEquals(CREATED_WITH, created.getResources().getLinux());

    env.clock.advance(Duration.ofSeconds(1));
    env.runtime.startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    ContainerStatus running = status(id);
    assertEquals(ContainerState.CONTAINER_RUNNING, running.getState());
    assertEquals(start + 2 * SECOND, running.getStartedAt());
    assertEquals(CREATED_WITH, running.getResources().getLinux());
    assertEquals("app", running.getLabelsOrThrow("container"));
    assertEquals("container app", running.getAnnotationsOrThrow("note"));

    String sideId =
        env.createContainer(podId, "side", "busybox", LinuxContainerResources.getDefaultInstance());
    ps(podId, id, sideId);

    ExecSyncResponse exec =
        env.runtime.execSync(
            ExecSyncRequest.newBuilder().setContainerId(id).addCmd("echo").addCmd("hi").build());
    assertEquals("echo hi\n", exec.getStdout().toStringUtf8());
    assertEquals(0, exec.getExitCode());

    env.runtime.updateContainerResources(
        UpdateContainerResourcesRequest.newBuilder()
            .setContainerId(id)
            .setLinux(UPDATED_TO)
            .build());
    assertEquals(UPDATED_TO, status(id).getResources().getLinux(), "replaced as a whole");

    env.clock.advance(Duration.ofSeconds(1));
    env.runtime.stopContainer(
        StopContainerRequest.newBuilder().setContainerId(id).setTimeout(10).build());
    ContainerStatus exited = status(id);
    assertEquals(ContainerState.CONTAINER_EXITED, exited.getState());
    assertEquals(0, exited.getExitCode());
    assertEquals("Completed", exited.getReason());
    assertEquals(start + 3 * SECOND, exited.getFinishedAt());
    env.runtime.stopContainer(StopContainerRequest.newBuilder().setContainerId(id).build());
    assertEquals(exited, status(id), "stopping again changes nothing");

    env.runtime.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
    assertEquals(List.of(sideId), ids(ContainerFilter.getDefaultInstance()));
    assertCode(Status.Code.NOT_FOUND, () -> status(id));

    env.runtime.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
    assertEquals(PodSandboxState.SANDBOX_NOTREADY, podStatus(podId).getState());
    assertEquals(ContainerState.CONTAINER_CREATED, status(sideId).getState());

    env.runtime.removePodSandbox(
        RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
    assertEquals(
        0, env.runtime.listPodSandbox(ListPodSandboxRequest.getDefaultInstance()).getItemsCount());
    assertEquals(List.of(), ids(ContainerFilter.getDefaultInstance()));
  }

  @Test
  void stopWithoutGracePeriodKillsWithExitCode137() {
    String id = env.runningContainer("web");
    env.runtime.stopContainer(StopContainerRequest.newBuilder().setContainerId(id).build());
    ContainerStatus exited = status(id);
    assertEquals(ContainerState.CONTAINER_EXITED, exited.getState());
    assertEquals(137, exited.getExitCode());
    assertEquals("Error", exited.getReason());
  }

  @Test
  void stoppingThePodKillsItsRunningContainers() {
    String id = env.runningContainer("web");
    String podId = env.podOf(id);
    env.runtime.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build());
    assertEquals(ContainerState.CONTAINER_EXITED, status(id).getState());
    assertEquals(137, status(id).getExitCode());
  }

  @Test
  void removingARunningContainerForcesIt() {
    String id = env.runningContainer("web");
    env.runtime.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
    assertEquals(List.of(), ids(ContainerFilter.getDefaultInstance()));
  }

  @Test
  void execOfFalseFails() {
    String id = env.runningContainer("web");
    ExecSyncResponse exec =
        env.runtime.execSync(
            ExecSyncRequest.newBuilder().setContainerId(id).addCmd("false").build());
    assertEquals(1, exec.getExitCode());
    assertTrue(exec.getStdout().isEmpty());
  }

  @Test
  void truncatedIdsResolveLikeContainerd() {
    String id = env.runningContainer("web");
    String prefix = id.substring(0, 63);
    assertEquals(id, env.runtime.containerStatus(statusRequest(prefix)).getStatus().getId());
    assertFalse(ids(ContainerFilter.newBuilder().setId(prefix).build()).isEmpty());
  }

  private void ps(String podId, String runningId, String createdId) {
    assertEquals(List.of(runningId, createdId), ids(ContainerFilter.getDefaultInstance()));
    assertEquals(List.of(runningId), ids(stateFilter(ContainerState.CONTAINER_RUNNING)));
    assertEquals(List.of(createdId), ids(stateFilter(ContainerState.CONTAINER_CREATED)));
    assertEquals(
        List.of(runningId, createdId),
        ids(ContainerFilter.newBuilder().setPodSandboxId(podId).build()));
    assertEquals(List.of(), ids(ContainerFilter.newBuilder().setPodSandboxId("f00").build()));
    assertEquals(
        List.of(createdId),
        ids(ContainerFilter.newBuilder().putLabelSelector("container", "side").build()));
    assertEquals(List.of(runningId), ids(ContainerFilter.newBuilder().setId(runningId).build()));
    Container listed =
        env.runtime
            .listContainers(
                ListContainersRequest.newBuilder()
                    .setFilter(ContainerFilter.newBuilder().setId(runningId))
                    .build())
            .getContainers(0);
    assertEquals(podId, listed.getPodSandboxId());
    assertEquals("app", listed.getMetadata().getName());
    assertEquals(ContainerState.CONTAINER_RUNNING, listed.getState());
  }

  private List<String> ids(ContainerFilter filter) {
    return env
        .runtime
        .listContainers(ListContainersRequest.newBuilder().setFilter(filter).build())
        .getContainersList()
        .stream()
        .map(Container::getId)
        .toList();
  }

  private static ContainerFilter stateFilter(ContainerState state) {
    return ContainerFilter.newBuilder()
        .setState(ContainerStateValue.newBuilder().setState(state))
        .build();
  }

  private ContainerStatus status(String id) {
    return env.runtime.containerStatus(statusRequest(id)).getStatus();
  }

  private static ContainerStatusRequest statusRequest(String id) {
    return ContainerStatusRequest.newBuilder().setContainerId(id).build();
  }

  private PodSandboxStatus podStatus(String id) {
    return env.runtime
        .podSandboxStatus(PodSandboxStatusRequest.newBuilder().setPodSandboxId(id).build())
        .getStatus();
  }

  static void assertCode(Status.Code code, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getStatus().toString());
  }
}
