package io.criresmgr.e2e;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One host-network pod with busybox containers that only sleep, for placement tests: containers are
 * created and started with given linux resources, and their CPUs read from the host. {@link
 * #close()} removes the pod and its cgroup parent, also after a failed step.
 */
final class PinnedPod implements AutoCloseable {
  private static final String SCRIPT = "trap 'exit 0' TERM; sleep 600 & wait";

  private final CriClient cri;
  private final WorkflowSpec spec;
  private final E2eNode node;
  private final PodSandboxConfig config;
  private final String podId;

  private PinnedPod(
      CriClient cri, WorkflowSpec spec, Map<String, String> annotations, E2eNode node) {
    this.cri = Objects.requireNonNull(cri, "cri");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.node = Objects.requireNonNull(node, "node");
    this.config = spec.pod().toBuilder().putAllAnnotations(annotations).build();
    this.podId =
        cri.runtime()
            .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
            .getPodSandboxId();
  }

  /** Runs the pod of {@code spec} on {@code node} through {@code cri}. */
  static PinnedPod run(CriClient cri, WorkflowSpec spec, E2eNode node) {
    return new PinnedPod(cri, spec, Map.of(), node);
  }

  /**
   * Runs the pod of {@code spec} with pod {@code annotations} on {@code node} through {@code cri}.
   */
  static PinnedPod run(
      CriClient cri, WorkflowSpec spec, Map<String, String> annotations, E2eNode node) {
    return new PinnedPod(cri, spec, annotations, node);
  }

  /** One whole CPU, request = limit: what kubelet sends for a guaranteed 1-CPU container. */
  static LinuxContainerResources oneWholeCpu() {
    return LinuxContainerResources.newBuilder()
        .setCpuShares(1024)
        .setCpuQuota(100_000)
        .setCpuPeriod(100_000)
        .build();
  }

  /** Half a CPU without limit: a burstable container, which shares. */
  static LinuxContainerResources halfCpuShared() {
    return LinuxContainerResources.newBuilder().setCpuShares(512).setCpuPeriod(100_000).build();
  }

  /** Creates and starts container {@code name}; returns its id. */
  String start(String name, LinuxContainerResources resources) {
    return start(name, resources, SCRIPT);
  }

  /** Creates and starts container {@code name} running {@code sh -c script}; returns its id. */
  String start(String name, LinuxContainerResources resources, String script) {
    return start(name, resources, script, List.of());
  }

  /**
   * Creates and starts container {@code name} with the host's {@code devices} (permissions {@code
   * rw}, as only writable devices give topology hints; at the same path in the container); returns
   * its id.
   */
  String startWithDevices(String name, LinuxContainerResources resources, List<String> devices) {
    List<Device> list =
        devices.stream()
            .map(d -> Device.newBuilder().setHostPath(d).setContainerPath(d).setPermissions("rw"))
            .map(Device.Builder::build)
            .toList();
    return start(name, resources, SCRIPT, list);
  }

  private String start(
      String name, LinuxContainerResources resources, String script, List<Device> devices) {
    ContainerConfig container =
        ContainerConfig.newBuilder()
            .addAllDevices(devices)
            .setMetadata(ContainerMetadata.newBuilder().setName(name))
            .setImage(ImageSpec.newBuilder().setImage(WorkflowSpec.BUSYBOX))
            .addCommand("sh")
            .addArgs("-c")
            .addArgs(script)
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    var create =
        CreateContainerRequest.newBuilder()
            .setPodSandboxId(podId)
            .setConfig(container)
            .setSandboxConfig(config)
            .build();
    String id = cri.runtime().createContainer(create).getContainerId();
    cri.runtime().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }

  /** Where container {@code id}'s init process may run, read from the node. */
  ContainerCpus.Placement placement(String id) throws IOException {
    return node.placement(initPid(id));
  }

  /** What {@code cmd} run in container {@code id} prints on stdout; fails unless it exits 0. */
  String exec(String id, String... cmd) {
    var request =
        io.criresmgr.api.runtime.v1.ExecSyncRequest.newBuilder()
            .setContainerId(id)
            .addAllCmd(java.util.List.of(cmd))
            .setTimeout(30)
            .build();
    var response = cri.runtime().execSync(request);
    if (response.getExitCode() != 0) {
      throw new IllegalStateException(
          String.join(" ", cmd)
              + " in "
              + id
              + " exited "
              + response.getExitCode()
              + ": "
              + response.getStderr().toStringUtf8());
    }
    return response.getStdout().toStringUtf8();
  }

  /** The pid of container {@code id}'s init process, from the runtime's verbose status. */
  long initPid(String id) throws IOException {
    var request = ContainerStatusRequest.newBuilder().setContainerId(id).setVerbose(true).build();
    String info = cri.runtime().containerStatus(request).getInfoOrDefault("info", "{}");
    return ContainerCpus.initPid(info);
  }

  /** Stops and removes container {@code id}. */
  void remove(String id) {
    cri.runtime()
        .stopContainer(StopContainerRequest.newBuilder().setContainerId(id).setTimeout(10).build());
    cri.runtime().removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
  }

  /** Stops and removes the pod (with its containers), then its empty cgroup parent. */
  @Override
  public void close() throws IOException {
    try {
      var stop = StopPodSandboxRequest.newBuilder().setPodSandboxId(podId).build();
      cri.runtime().stopPodSandbox(stop);
      var remove = RemovePodSandboxRequest.newBuilder().setPodSandboxId(podId).build();
      cri.runtime().removePodSandbox(remove);
    } catch (StatusRuntimeException e) {
      // a failed step is what the test reports; stop-containerd.sh cleans up what is left
    }
    node.removeCgroupParent(spec.cgroupParent());
  }
}
