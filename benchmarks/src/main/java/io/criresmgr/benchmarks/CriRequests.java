package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import java.util.List;

/**
 * Kubelet-shaped CRI requests for the pipeline benchmarks: a burstable pod and containers with CPU
 * shares, and optionally a quota of whole CPUs (what kubelet sends for a guaranteed container).
 */
public final class CriRequests {
  /** The one image the simulated runtime has. */
  public static final String IMAGE = "busybox";

  private CriRequests() {}

  /** RunPodSandbox for pod {@code name} (UID {@code <name>-uid}). */
  public static RunPodSandboxRequest runPod(String name) {
    return RunPodSandboxRequest.newBuilder().setConfig(podConfig(name)).build();
  }

  /** A pod config like kubelet's, with labels, annotations and a burstable cgroup parent. */
  public static PodSandboxConfig podConfig(String name) {
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder()
                .setName(name)
                .setNamespace("bench")
                .setUid(name + "-uid"))
        .setLogDirectory("/var/log/pods/bench_" + name)
        .putLabels("app", name)
        .putLabels("io.kubernetes.pod.namespace", "bench")
        .putAnnotations("kubernetes.io/config.source", "api")
        .setLinux(
            LinuxPodSandboxConfig.newBuilder()
                .setCgroupParent("/kubepods/burstable/pod" + name + "-uid"))
        .build();
  }

  /** CreateContainer of container {@code name} in pod {@code podId} with {@code resources}. */
  public static CreateContainerRequest createContainer(
      String podId, PodSandboxConfig pod, String name, LinuxContainerResources resources) {
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(name))
            .setImage(ImageSpec.newBuilder().setImage(IMAGE))
            .addAllCommand(List.of("sleep", "inf"))
            .setLogPath(name + "/0.log")
            .putLabels("io.kubernetes.container.name", name)
            .putAnnotations("io.kubernetes.container.restartCount", "0")
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    return CreateContainerRequest.newBuilder()
        .setPodSandboxId(podId)
        .setConfig(config)
        .setSandboxConfig(pod)
        .build();
  }

  /** Half a CPU, shared: cpu shares 512, no quota, 256 MiB. */
  public static LinuxContainerResources shared() {
    return LinuxContainerResources.newBuilder()
        .setCpuShares(512)
        .setCpuPeriod(100_000)
        .setMemoryLimitInBytes(256L << 20)
        .build();
  }

  /** Best effort: no request and no limit (kubelet's minimum of 2 CPU shares). */
  public static LinuxContainerResources bestEffort() {
    return LinuxContainerResources.newBuilder().setCpuShares(2).setCpuPeriod(100_000).build();
  }

  /** {@code cpus} whole CPUs, request = limit: shares and quota as kubelet computes them. */
  public static LinuxContainerResources wholeCpus(int cpus) {
    return LinuxContainerResources.newBuilder()
        .setCpuShares(1024L * cpus)
        .setCpuQuota(100_000L * cpus)
        .setCpuPeriod(100_000)
        .setMemoryLimitInBytes(256L << 20)
        .build();
  }
}
