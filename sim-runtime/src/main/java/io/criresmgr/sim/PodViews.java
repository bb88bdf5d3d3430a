package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.LinuxPodSandboxStatus;
import io.criresmgr.api.runtime.v1.Namespace;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxNetworkStatus;
import io.criresmgr.api.runtime.v1.PodSandboxStatus;

/** Builds the CRI messages that describe a {@link SimPod}. */
final class PodViews {
  private PodViews() {}

  /** The {@code ListPodSandbox} item. */
  static PodSandbox sandbox(SimPod pod) {
    return PodSandbox.newBuilder()
        .setId(pod.id())
        .setMetadata(pod.config().getMetadata())
        .setState(pod.state())
        .setCreatedAt(pod.createdAt())
        .putAllLabels(pod.config().getLabelsMap())
        .putAllAnnotations(pod.config().getAnnotationsMap())
        .setRuntimeHandler(pod.runtimeHandler())
        .build();
  }

  /** The {@code PodSandboxStatus} status. */
  static PodSandboxStatus status(SimPod pod) {
    var namespaces = pod.config().getLinux().getSecurityContext().getNamespaceOptions();
    return PodSandboxStatus.newBuilder()
        .setId(pod.id())
        .setMetadata(pod.config().getMetadata())
        .setState(pod.state())
        .setCreatedAt(pod.createdAt())
        .setNetwork(PodSandboxNetworkStatus.newBuilder().setIp(pod.ip()))
        .setLinux(
            LinuxPodSandboxStatus.newBuilder()
                .setNamespaces(Namespace.newBuilder().setOptions(namespaces)))
        .putAllLabels(pod.config().getLabelsMap())
        .putAllAnnotations(pod.config().getAnnotationsMap())
        .setRuntimeHandler(pod.runtimeHandler())
        .build();
  }
}
