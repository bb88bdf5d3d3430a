package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;

/**
 * CRI requests of the crash test's workload, built as kubelet builds them. Containers whose name
 * starts with {@value #EXCLUSIVE} ask for one whole CPU (shares 1024, quota = period), which the
 * template policy grants exclusively; names starting with {@value #SHARED} ask for half a CPU
 * without a limit and share.
 */
final class CrashRequests {
  /** Name prefix of containers that want one exclusive CPU. */
  static final String EXCLUSIVE = "x";

  /** Name prefix of containers that share. */
  static final String SHARED = "s";

  /** The image every container runs; the simulated runtime has it from the start. */
  static final String IMAGE = "busybox";

  private static final long PERIOD = 100_000;
  private static final long MEMORY = 64L << 20;

  private CrashRequests() {}

  /** A burstable pod numbered {@code n}. */
  static RunPodSandboxRequest runPod(int n) {
    PodSandboxMetadata metadata =
        PodSandboxMetadata.newBuilder()
            .setName("pod-" + n)
            .setNamespace("crash")
            .setUid("uid-" + n)
            .build();
    return RunPodSandboxRequest.newBuilder().setConfig(podConfig(metadata)).build();
  }

  /** The sandbox config of a pod, rebuilt from its metadata (kubelet keeps it; we recompute). */
  static PodSandboxConfig podConfig(PodSandboxMetadata metadata) {
    return PodSandboxConfig.newBuilder()
        .setMetadata(metadata)
        .putLabels("io.kubernetes.pod.name", metadata.getName())
        .putLabels("io.kubernetes.pod.uid", metadata.getUid())
        .setLinux(
            LinuxPodSandboxConfig.newBuilder()
                .setCgroupParent("/kubepods/burstable/pod" + metadata.getUid()))
        .build();
  }

  /** Creates container {@code name} (attempt {@code attempt}) in {@code pod}. */
  static CreateContainerRequest create(PodSandbox pod, String name, int attempt) {
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(name).setAttempt(attempt))
            .setImage(ImageSpec.newBuilder().setImage(IMAGE))
            .addCommand("sleep")
            .addArgs("3600")
            .putLabels("io.kubernetes.container.name", name)
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources(name, 512)))
            .build();
    return CreateContainerRequest.newBuilder()
        .setPodSandboxId(pod.getId())
        .setConfig(config)
        .setSandboxConfig(podConfig(pod.getMetadata()))
        .build();
  }

  /** Kubelet resizing a shared container to {@code shares}. */
  static UpdateContainerResourcesRequest resize(String containerId, long shares) {
    return UpdateContainerResourcesRequest.newBuilder()
        .setContainerId(containerId)
        .setLinux(resources(SHARED, shares))
        .build();
  }

  /** Whether container {@code name} wants an exclusive CPU. */
  static boolean isExclusive(String name) {
    return name.startsWith(EXCLUSIVE);
  }

  private static LinuxContainerResources resources(String name, long sharedShares) {
    LinuxContainerResources.Builder r =
        LinuxContainerResources.newBuilder().setCpuPeriod(PERIOD).setMemoryLimitInBytes(MEMORY);
    if (isExclusive(name)) {
      return r.setCpuShares(1024).setCpuQuota(PERIOD).build();
    }
    return r.setCpuShares(sharedShares).build();
  }
}
