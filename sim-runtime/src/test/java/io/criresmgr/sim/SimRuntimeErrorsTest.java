package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.CheckpointContainerRequest;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerStatsRequest;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ExecSyncRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Error codes and messages, as a kubelet (or the proxy) would see them. */
class SimRuntimeErrorsTest {
  private static final String UNKNOWN = "ab".repeat(32);
  private static final LinuxContainerResources NONE = LinuxContainerResources.getDefaultInstance();

  private final InProcessSim env = new InProcessSim();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void unknownContainerIdsAreNotFoundNamingTheId() {
    var rt = env.runtime;
    assertStatus(Status.Code.NOT_FOUND, UNKNOWN, () -> rt.containerStatus(status(UNKNOWN)));
    assertStatus(Status.Code.NOT_FOUND, UNKNOWN, () -> rt.startContainer(start(UNKNOWN)));
    assertStatus(
        Status.Code.NOT_FOUND,
        UNKNOWN,
        () -> rt.stopContainer(StopContainerRequest.newBuilder().setContainerId(UNKNOWN).build()));
    assertStatus(
        Status.Code.NOT_FOUND, UNKNOWN, () -> rt.updateContainerResources(update(UNKNOWN)));
    assertStatus(Status.Code.NOT_FOUND, UNKNOWN, () -> rt.execSync(exec(UNKNOWN)));
    assertStatus(
        Status.Code.NOT_FOUND,
        UNKNOWN,
        () ->
            rt.containerStats(ContainerStatsRequest.newBuilder().setContainerId(UNKNOWN).build()));
  }

  @Test
  void unknownPodIdsAreNotFoundNamingTheId() {
    var rt = env.runtime;
    assertStatus(
        Status.Code.NOT_FOUND,
        UNKNOWN,
        () ->
            rt.podSandboxStatus(
                PodSandboxStatusRequest.newBuilder().setPodSandboxId(UNKNOWN).build()));
    assertStatus(
        Status.Code.NOT_FOUND,
        UNKNOWN,
        () ->
            rt.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(UNKNOWN).build()));
  }

  @Test
  void removingUnknownIdsSucceedsLikeContainerd() {
    env.runtime.removeContainer(
        RemoveContainerRequest.newBuilder().setContainerId(UNKNOWN).build());
    env.runtime.removePodSandbox(
        RemovePodSandboxRequest.newBuilder().setPodSandboxId(UNKNOWN).build());
  }

  @Test
  void createInUnknownPodIsNotFound() {
    env.pull("busybox");
    assertStatus(
        Status.Code.NOT_FOUND, UNKNOWN, () -> env.createContainer(UNKNOWN, "c", "busybox", NONE));
  }

  @Test
  void createWithUnknownImageIsNotFoundWithoutPulling() {
    String pod = env.runPod("web");
    assertStatus(
        Status.Code.NOT_FOUND,
        "nginx:1.27",
        () -> env.createContainer(pod, "c", "nginx:1.27", NONE));
  }

  @Test
  void createInStoppedPodFails() {
    env.pull("busybox");
    String pod = env.runPod("web");
    env.runtime.stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(pod).build());
    assertStatus(
        Status.Code.FAILED_PRECONDITION, pod, () -> env.createContainer(pod, "c", "busybox", NONE));
  }

  @Test
  void missingConfigOrMetadataIsInvalid() {
    assertStatus(
        Status.Code.INVALID_ARGUMENT,
        "metadata",
        () -> env.runtime.runPodSandbox(RunPodSandboxRequest.getDefaultInstance()));
    String pod = env.runPod("web");
    CreateContainerRequest noMetadata =
        CreateContainerRequest.newBuilder()
            .setPodSandboxId(pod)
            .setConfig(ContainerConfig.getDefaultInstance())
            .build();
    assertStatus(
        Status.Code.INVALID_ARGUMENT, "metadata", () -> env.runtime.createContainer(noMetadata));
    assertStatus(
        Status.Code.INVALID_ARGUMENT, "empty", () -> env.runtime.containerStatus(status("")));
  }

  @Test
  void duplicateNamesAreRejected() {
    env.pull("busybox");
    String pod = env.runPod("web");
    assertStatus(Status.Code.ALREADY_EXISTS, pod, () -> env.runPod("web"));
    String first = env.createContainer(pod, "c", "busybox", NONE);
    assertStatus(
        Status.Code.ALREADY_EXISTS, first, () -> env.createContainer(pod, "c", "busybox", NONE));
  }

  @Test
  void wrongStatesAreFailedPreconditions() {
    String id = env.runningContainer("web");
    assertStatus(
        Status.Code.FAILED_PRECONDITION,
        "CONTAINER_RUNNING",
        () -> env.runtime.startContainer(start(id)));
    env.runtime.stopContainer(StopContainerRequest.newBuilder().setContainerId(id).build());
    assertStatus(
        Status.Code.FAILED_PRECONDITION,
        "CONTAINER_EXITED",
        () -> env.runtime.updateContainerResources(update(id)));
    assertStatus(Status.Code.FAILED_PRECONDITION, id, () -> env.runtime.execSync(exec(id)));
    assertStatus(Status.Code.FAILED_PRECONDITION, id, () -> env.runtime.startContainer(start(id)));
  }

  @Test
  void checkpointIsUnimplemented() {
    String id = env.runningContainer("web");
    assertStatus(
        Status.Code.UNIMPLEMENTED,
        id,
        () ->
            env.runtime.checkpointContainer(
                CheckpointContainerRequest.newBuilder().setContainerId(id).build()));
  }

  private static void assertStatus(Status.Code code, String inMessage, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getStatus().toString());
    String description = String.valueOf(e.getStatus().getDescription());
    assertTrue(description.contains(inMessage), description);
  }

  private static ContainerStatusRequest status(String id) {
    return ContainerStatusRequest.newBuilder().setContainerId(id).build();
  }

  private static StartContainerRequest start(String id) {
    return StartContainerRequest.newBuilder().setContainerId(id).build();
  }

  private static UpdateContainerResourcesRequest update(String id) {
    return UpdateContainerResourcesRequest.newBuilder()
        .setContainerId(id)
        .setLinux(LinuxContainerResources.newBuilder().setCpuShares(2))
        .build();
  }

  private static ExecSyncRequest exec(String id) {
    return ExecSyncRequest.newBuilder().setContainerId(id).addCmd("true").build();
  }
}
