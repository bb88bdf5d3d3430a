package io.criresmgr.e2e;

import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ExecSyncRequest;
import io.criresmgr.api.runtime.v1.ExecSyncResponse;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListImagesRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.PodSandboxStatusRequest;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StatusRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@code crictl runp / create / start / exec / logs / update / stop / rm / stopp / rmp} does,
 * over gRPC against one CRI endpoint, observing every answer and the container's cgroup on the
 * bed's node. One instance makes one run.
 */
final class CrictlWorkflow {
  /** A container ID no runtime knows, for the error path. */
  static final String MISSING_ID = "does-not-exist-e2e";

  /** The exec command: prints a marker and the CPUs the exec'd process may run on. */
  static final List<String> EXEC =
      List.of("sh", "-c", "echo exec-ok; grep Cpus_allowed_list /proc/self/status");

  private final CriClient cri;
  private final WorkflowSpec spec;
  private final SuiteBed bed;
  private final CallLog calls = new CallLog();
  private final List<String> podStates = new ArrayList<>();
  private final List<String> containerStates = new ArrayList<>();
  private String podId = "";
  private String containerId = "";
  private boolean podRemoved;

  /**
   * A run of {@code spec} through {@code cri}, to a runtime on {@code bed}'s node (where {@code
   * spec}'s log directory exists).
   */
  CrictlWorkflow(CriClient cri, WorkflowSpec spec, SuiteBed bed) {
    this.cri = Objects.requireNonNull(cri, "cri");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.bed = Objects.requireNonNull(bed, "bed");
  }

  /** Runs the whole workflow; the pod is removed even when a step fails. */
  Observations run() throws IOException, InterruptedException {
    String version = describe(calls.call("Version", () -> cri.runtime().version(version())));
    List<String> conditions = conditions();
    List<String> images = e2eImages();
    try {
      runPodAndContainer();
      String exec = exec();
      List<String> log =
          ContainerLog.awaitMessages(() -> bed.readIfExists(logFile()), WorkflowSpec.HELLO);
      CgroupValues initial = bed.cgroupValues(spec.cgroupParent(), containerId);
      update("1");
      CgroupValues updated = bed.cgroupValues(spec.cgroupParent(), containerId);
      String execAfterUpdate = exec();
      int exitCode = stopAndRemove();
      boolean listed = listed();
      String missing = missingContainerError();
      return new Observations(
          calls.entries(),
          version,
          conditions,
          images,
          podStates,
          containerStates,
          exec,
          log,
          initial,
          execAfterUpdate,
          updated,
          exitCode,
          listed,
          missing);
    } finally {
      cleanUp();
    }
  }

  private static VersionRequest version() {
    return VersionRequest.newBuilder().setVersion("v1").build();
  }

  private static String describe(VersionResponse v) {
    return String.join(
        " ", v.getVersion(), v.getRuntimeName(), v.getRuntimeVersion(), v.getRuntimeApiVersion());
  }

  private List<String> conditions() {
    var status =
        calls.call("Status", () -> cri.runtime().status(StatusRequest.getDefaultInstance()));
    return status.getStatus().getConditionsList().stream()
        .map(
            c ->
                c.getType()
                    + "="
                    + c.getStatus()
                    + (c.getReason().isEmpty() ? "" : " " + c.getReason() + ": " + c.getMessage()))
        .toList();
  }

  private List<String> e2eImages() {
    var list =
        calls.call(
            "ListImages", () -> cri.images().listImages(ListImagesRequest.getDefaultInstance()));
    return list.getImagesList().stream()
        .flatMap(i -> i.getRepoTagsList().stream())
        .filter(tag -> tag.startsWith("localhost/e2e/"))
        .sorted()
        .toList();
  }

  private void runPodAndContainer() {
    var runPod = RunPodSandboxRequest.newBuilder().setConfig(spec.pod()).build();
    podId =
        calls.call("RunPodSandbox", () -> cri.runtime().runPodSandbox(runPod)).getPodSandboxId();
    podStates.add(podState());
    var create =
        CreateContainerRequest.newBuilder()
            .setPodSandboxId(podId)
            .setConfig(spec.container())
            .setSandboxConfig(spec.pod())
            .build();
    containerId =
        calls.call("CreateContainer", () -> cri.runtime().createContainer(create)).getContainerId();
    containerStates.add(containerState());
    var start = StartContainerRequest.newBuilder().setContainerId(containerId).build();
    calls.call("StartContainer", () -> cri.runtime().startContainer(start));
    containerStates.add(containerState());
  }

  private String podState() {
    var req = PodSandboxStatusRequest.newBuilder().setPodSandboxId(podId).build();
    return calls
        .call("PodSandboxStatus", () -> cri.runtime().podSandboxStatus(req))
        .getStatus()
        .getState()
        .name();
  }

  private String containerState() {
    return containerStatus().getState().name();
  }

  private io.criresmgr.api.runtime.v1.ContainerStatus containerStatus() {
    var req = ContainerStatusRequest.newBuilder().setContainerId(containerId).build();
    return calls.call("ContainerStatus", () -> cri.runtime().containerStatus(req)).getStatus();
  }

  private String exec() {
    var req =
        ExecSyncRequest.newBuilder()
            .setContainerId(containerId)
            .addAllCmd(EXEC)
            .setTimeout(30)
            .build();
    ExecSyncResponse r = calls.call("ExecSync", () -> cri.runtime().execSync(req));
    return "exit "
        + r.getExitCode()
        + ", stdout ["
        + r.getStdout().toStringUtf8()
        + "], stderr ["
        + r.getStderr().toStringUtf8()
        + "]";
  }

  private java.nio.file.Path logFile() {
    return spec.logDir().resolve(WorkflowSpec.LOG_PATH);
  }

  private void update(String cpus) {
    var req =
        UpdateContainerResourcesRequest.newBuilder()
            .setContainerId(containerId)
            .setLinux(WorkflowSpec.resources(cpus))
            .build();
    calls.call("UpdateContainerResources", () -> cri.runtime().updateContainerResources(req));
  }

  /** Stops and removes container and pod; returns the container's exit code. */
  private int stopAndRemove() {
    var stop = StopContainerRequest.newBuilder().setContainerId(containerId).setTimeout(10).build();
    calls.call("StopContainer", () -> cri.runtime().stopContainer(stop));
    var status = containerStatus();
    containerStates.add(status.getState().name());
    var remove = RemoveContainerRequest.newBuilder().setContainerId(containerId).build();
    calls.call("RemoveContainer", () -> cri.runtime().removeContainer(remove));
    var stopPod = StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build();
    calls.call("StopPodSandbox", () -> cri.runtime().stopPodSandbox(stopPod));
    podStates.add(podState());
    var removePod = RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build();
    calls.call("RemovePodSandbox", () -> cri.runtime().removePodSandbox(removePod));
    podRemoved = true;
    return status.getExitCode();
  }

  private boolean listed() {
    var containers =
        calls.call(
            "ListContainers",
            () -> cri.runtime().listContainers(ListContainersRequest.getDefaultInstance()));
    var pods =
        calls.call(
            "ListPodSandbox",
            () -> cri.runtime().listPodSandbox(ListPodSandboxRequest.getDefaultInstance()));
    return containers.getContainersList().stream().anyMatch(c -> c.getId().equals(containerId))
        || pods.getItemsList().stream().anyMatch(p -> p.getId().equals(podId));
  }

  private String missingContainerError() {
    var req = ContainerStatusRequest.newBuilder().setContainerId(MISSING_ID).build();
    try {
      calls.call("ContainerStatus", () -> cri.runtime().containerStatus(req));
      return "no error";
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode() + ": " + e.getStatus().getDescription();
    }
  }

  /** Best effort after a failed step: force-remove the pod, then its empty cgroup parent. */
  private void cleanUp() throws IOException {
    if (!podId.isEmpty() && !podRemoved) {
      try {
        var req = RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build();
        cri.runtime().removePodSandbox(req);
      } catch (StatusRuntimeException e) {
        // the step that failed is what the test reports; stop-containerd.sh cleans up the rest
      }
    }
    bed.node().removeCgroupParent(spec.cgroupParent());
  }
}
