package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.QosClass;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CRI messages kubelet (cgroupfs driver, cgroup v1, CFS quota on) sends for a {@link PodSpec}:
 * the QoS class's cgroup parent, CPU shares from the request ({@code MilliCPUToShares}), quota from
 * the limit ({@code MilliCPUToQuota}, period 100 ms), the memory limit, and kubelet's labels.
 */
final class KubeletConfigs {
  static final String IMAGE = "docker.io/library/busybox:latest";
  static final long PERIOD = 100_000;
  static final long MIN_SHARES = 2;
  static final long MIN_QUOTA = 1_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private KubeletConfigs() {}

  /** The cgroup parent kubelet gives a pod of {@code qos} with {@code uid}. */
  static String cgroupParent(QosClass qos, String uid) {
    return switch (qos) {
      case GUARANTEED -> "/kubepods/pod" + uid;
      case BURSTABLE -> "/kubepods/burstable/pod" + uid;
      case BEST_EFFORT -> "/kubepods/besteffort/pod" + uid;
    };
  }

  /** The sandbox configuration of {@code pod}; with the webhook's annotation if {@code webhook}. */
  static PodSandboxConfig sandbox(PodSpec pod, String uid, boolean webhook) {
    Map<String, String> annotations = new HashMap<>(pod.annotations());
    annotations.put("kubernetes.io/config.source", "api");
    if (webhook) {
      annotations.put(PodResourcesAnnotation.KEY, resourceAnnotation(pod));
    }
    Map<String, String> labels = new HashMap<>(pod.labels());
    labels.put("io.kubernetes.pod.name", pod.name());
    labels.put("io.kubernetes.pod.namespace", pod.namespace());
    labels.put("io.kubernetes.pod.uid", uid);
    return PodSandboxConfig.newBuilder()
        .setMetadata(
            PodSandboxMetadata.newBuilder()
                .setName(pod.name())
                .setNamespace(pod.namespace())
                .setUid(uid))
        .setHostname(pod.name())
        .putAllLabels(labels)
        .putAllAnnotations(annotations)
        .setLinux(
            LinuxPodSandboxConfig.newBuilder().setCgroupParent(cgroupParent(pod.qosClass(), uid)))
        .build();
  }

  /**
   * The configuration of container {@code name} (attempt {@code attempt}) of {@code pod}; a regular
   * container has the pod's devices ({@code rwm}) and writable mounts, each at its host path.
   */
  static ContainerConfig container(PodSpec pod, String uid, String name, int attempt) {
    ContainerConfig.Builder b =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(name).setAttempt(attempt))
            .setImage(ImageSpec.newBuilder().setImage(IMAGE))
            .addAllCommand(List.of("sh", "-c", "echo " + name + " $(sleep inf)"))
            .putLabels("io.kubernetes.container.name", name)
            .putLabels("io.kubernetes.pod.name", pod.name())
            .putLabels("io.kubernetes.pod.namespace", pod.namespace())
            .putLabels("io.kubernetes.pod.uid", uid)
            .putAllAnnotations(pod.containerAnnotations().getOrDefault(name, Map.of()))
            .putAnnotations("io.kubernetes.container.restartCount", Integer.toString(attempt))
            .setLinux(
                LinuxContainerConfig.newBuilder().setResources(resources(pod.resources(name))));
    if (pod.containerNames().contains(name)) {
      pod.devices()
          .forEach(
              d ->
                  b.addDevices(
                      Device.newBuilder()
                          .setContainerPath(d)
                          .setHostPath(d)
                          .setPermissions("rwm")));
      pod.mounts().forEach(m -> b.addMounts(Mount.newBuilder().setContainerPath(m).setHostPath(m)));
    }
    return b.build();
  }

  /** The linux resources kubelet computes from a container's requests and limits. */
  static LinuxContainerResources resources(PodSpec.Requirements r) {
    LinuxContainerResources.Builder b =
        LinuxContainerResources.newBuilder()
            .setCpuShares(milliCpuToShares(r.cpuRequest()))
            .setCpuPeriod(PERIOD)
            .setCpuQuota(milliCpuToQuota(r.cpuLimit()));
    if (r.memoryLimit() > 0) {
      b.setMemoryLimitInBytes(r.memoryLimit());
    }
    return b.build();
  }

  /** Kubelet's {@code MilliCPUToShares}: 1024 per CPU, at least 2. */
  static long milliCpuToShares(long milli) {
    return milli == 0 ? MIN_SHARES : Math.max(MIN_SHARES, milli * 1024 / 1000);
  }

  /** Kubelet's {@code MilliCPUToQuota}: 0 without a limit, else at least 1 ms per period. */
  static long milliCpuToQuota(long milli) {
    return milli == 0 ? 0 : Math.max(MIN_QUOTA, milli * PERIOD / 1000);
  }

  /** The webhook's annotation: every container's requests and limits. */
  private static String resourceAnnotation(PodSpec pod) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode init = root.putObject("initContainers");
    pod.initContainerNames().forEach(n -> requirements(init.putObject(n), pod.resources(n)));
    ObjectNode regular = root.putObject("containers");
    pod.containerNames().forEach(n -> requirements(regular.putObject(n), pod.resources(n)));
    List<String> sidecars = pod.initContainerNames().stream().filter(pod::isSidecar).toList();
    if (!sidecars.isEmpty()) {
      sidecars.forEach(root.putArray("sidecars")::add);
    }
    return root.toString();
  }

  private static void requirements(ObjectNode out, PodSpec.Requirements r) {
    ObjectNode requests = out.putObject("requests");
    ObjectNode limits = out.putObject("limits");
    if (r.cpuRequest() > 0) {
      requests.put("cpu", r.cpuRequest() + "m");
    }
    if (r.memoryRequest() > 0) {
      requests.put("memory", Long.toString(r.memoryRequest()));
    }
    if (r.cpuLimit() > 0) {
      limits.put("cpu", r.cpuLimit() + "m");
    }
    if (r.memoryLimit() > 0) {
      limits.put("memory", Long.toString(r.memoryLimit()));
    }
  }
}
