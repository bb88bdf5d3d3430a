package io.criresmgr.proxy.nri;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.ContainerResources;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.HugepageLimit;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.PodSandboxStatus;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.PodSandbox;

/**
 * NRI's pods and containers as the CRI messages the pipeline reads: the requests kubelet would have
 * sent (pods and containers in events) and the runtime's listings (pods and containers at
 * Synchronize). NRI carries no image and no creation time; the cgroup parent of a pod is its {@code
 * linux.cgroup_parent}.
 */
final class NriToCri {
  private static final ObjectMapper JSON = new ObjectMapper();

  private NriToCri() {}

  /** The pod's sandbox config: identity, labels, annotations and cgroup parent. */
  static PodSandboxConfig sandboxConfig(PodSandbox pod) {
    return PodSandboxConfig.newBuilder()
        .setMetadata(metadata(pod))
        .putAllLabels(pod.getLabelsMap())
        .putAllAnnotations(pod.getAnnotationsMap())
        .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent(cgroupParent(pod)))
        .build();
  }

  /** The RunPodSandbox kubelet sent for {@code pod}. */
  static RunPodSandboxRequest runRequest(PodSandbox pod) {
    return RunPodSandboxRequest.newBuilder()
        .setConfig(sandboxConfig(pod))
        .setRuntimeHandler(pod.getRuntimeHandler())
        .build();
  }

  /** {@code pod} as ListPodSandbox lists it. */
  static io.criresmgr.api.runtime.v1.PodSandbox listItem(PodSandbox pod, boolean ready) {
    return io.criresmgr.api.runtime.v1.PodSandbox.newBuilder()
        .setId(pod.getId())
        .setMetadata(metadata(pod))
        .setState(ready ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY)
        .putAllLabels(pod.getLabelsMap())
        .putAllAnnotations(pod.getAnnotationsMap())
        .setRuntimeHandler(pod.getRuntimeHandler())
        .build();
  }

  /** The verbose PodSandboxStatus of {@code pod}, with the cgroup parent in containerd's shape. */
  static PodSandboxStatusResponse status(PodSandbox pod, boolean ready) {
    ObjectNode info = JSON.createObjectNode();
    info.putObject("config").putObject("linux").put("cgroup_parent", cgroupParent(pod));
    return PodSandboxStatusResponse.newBuilder()
        .setStatus(
            PodSandboxStatus.newBuilder()
                .setId(pod.getId())
                .setMetadata(metadata(pod))
                .setState(ready ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY)
                .putAllLabels(pod.getLabelsMap())
                .putAllAnnotations(pod.getAnnotationsMap()))
        .putInfo("info", info.toString())
        .build();
  }

  /** The CreateContainer kubelet sent for {@code container} of {@code pod}. */
  static CreateContainerRequest createRequest(PodSandbox pod, Container container) {
    ContainerConfig.Builder config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(container.getName()))
            .putAllLabels(container.getLabelsMap())
            .putAllAnnotations(container.getAnnotationsMap())
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources(container)));
    for (String env : container.getEnvList()) {
      int eq = env.indexOf('=');
      config.addEnvs(
          eq < 0
              ? KeyValue.newBuilder().setKey(env)
              : KeyValue.newBuilder().setKey(env.substring(0, eq)).setValue(env.substring(eq + 1)));
    }
    config.addAllMounts(mounts(container));
    for (var d : container.getLinux().getDevicesList()) {
      config.addDevices(Device.newBuilder().setHostPath(d.getPath()).setContainerPath(d.getPath()));
    }
    return CreateContainerRequest.newBuilder()
        .setPodSandboxId(pod.getId())
        .setConfig(config)
        .setSandboxConfig(sandboxConfig(pod))
        .build();
  }

  /** {@code container} as ListContainers lists it, created at {@code createdAt}. */
  static io.criresmgr.api.runtime.v1.Container listItem(Container container, long createdAt) {
    return io.criresmgr.api.runtime.v1.Container.newBuilder()
        .setId(container.getId())
        .setPodSandboxId(container.getPodSandboxId())
        .setMetadata(ContainerMetadata.newBuilder().setName(container.getName()))
        .setState(state(container.getState()))
        .setCreatedAt(createdAt)
        .putAllLabels(container.getLabelsMap())
        .putAllAnnotations(container.getAnnotationsMap())
        .build();
  }

  /** The ContainerStatus of {@code container}, with its linux resources and mounts. */
  static ContainerStatus status(Container container, long createdAt) {
    return ContainerStatus.newBuilder()
        .setId(container.getId())
        .setMetadata(ContainerMetadata.newBuilder().setName(container.getName()))
        .setState(state(container.getState()))
        .setCreatedAt(createdAt)
        .putAllLabels(container.getLabelsMap())
        .putAllAnnotations(container.getAnnotationsMap())
        .addAllMounts(mounts(container))
        .setResources(ContainerResources.newBuilder().setLinux(resources(container)))
        .build();
  }

  /** NRI's container state as CRI's; a paused container still holds its resources. */
  static ContainerState state(io.criresmgr.nri.api.ContainerState state) {
    return switch (state) {
      case CONTAINER_CREATED -> ContainerState.CONTAINER_CREATED;
      case CONTAINER_RUNNING, CONTAINER_PAUSED -> ContainerState.CONTAINER_RUNNING;
      case CONTAINER_STOPPED -> ContainerState.CONTAINER_EXITED;
      case CONTAINER_UNKNOWN, UNRECOGNIZED -> ContainerState.CONTAINER_UNKNOWN;
    };
  }

  /** The container's linux resources (and OOM score adjustment) as CRI's. */
  static LinuxContainerResources resources(Container container) {
    LinuxContainerResources.Builder b = resources(container.getLinux().getResources()).toBuilder();
    if (container.getLinux().hasOomScoreAdj()) {
      b.setOomScoreAdj(container.getLinux().getOomScoreAdj().getValue());
    }
    return b.build();
  }

  /** NRI's linux resources as CRI's: CPU, cpuset, memory limit, hugepages, unified. */
  static LinuxContainerResources resources(LinuxResources r) {
    var cpu = r.getCpu();
    LinuxContainerResources.Builder b =
        LinuxContainerResources.newBuilder()
            .setCpuShares(cpu.getShares().getValue())
            .setCpuQuota(cpu.getQuota().getValue())
            .setCpuPeriod(cpu.getPeriod().getValue())
            .setCpusetCpus(cpu.getCpus())
            .setCpusetMems(cpu.getMems())
            .setMemoryLimitInBytes(r.getMemory().getLimit().getValue())
            .setMemorySwapLimitInBytes(r.getMemory().getSwap().getValue())
            .putAllUnified(r.getUnifiedMap());
    for (var h : r.getHugepageLimitsList()) {
      b.addHugepageLimits(
          HugepageLimit.newBuilder().setPageSize(h.getPageSize()).setLimit(h.getLimit()));
    }
    return b.build();
  }

  private static java.util.List<Mount> mounts(Container container) {
    return container.getMountsList().stream()
        .map(
            m ->
                Mount.newBuilder()
                    .setContainerPath(m.getDestination())
                    .setHostPath(m.getSource())
                    .setReadonly(m.getOptionsList().contains("ro"))
                    .build())
        .toList();
  }

  private static PodSandboxMetadata metadata(PodSandbox pod) {
    return PodSandboxMetadata.newBuilder()
        .setName(pod.getName())
        .setUid(pod.getUid())
        .setNamespace(pod.getNamespace())
        .build();
  }

  private static String cgroupParent(PodSandbox pod) {
    return pod.getLinux().getCgroupParent();
  }
}
