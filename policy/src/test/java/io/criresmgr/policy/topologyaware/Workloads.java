package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.List;
import java.util.Map;

/** Pods and containers built from records for the request-derivation tests. */
final class Workloads {
  private Workloads() {}

  /** Pod {@code p} of {@code namespace} with {@code annotations}. */
  static Pod pod(String namespace, QosClass qos, Map<String, String> annotations) {
    return new Pod(
        "sandbox-p",
        "uid-p",
        "p",
        namespace,
        Map.of(),
        annotations,
        "/kubepods/pod-p",
        qos,
        PodResources.NONE,
        true);
  }

  /** Container {@code name} of {@code pod} with {@code resources}. */
  static Container container(Pod pod, String name, Resources resources) {
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .image("busybox")
        .state(ContainerState.CREATING)
        .resources(resources)
        .qosClass(pod.qosClass())
        .seq(1)
        .build();
  }

  /**
   * Options with these preferences and reserved namespaces, the rest defaults; {@code preferShared}
   * is cri-resmgr's {@code PreferSharedCPUs: true} ({@code fractional}).
   */
  static TopologyAwareOptions options(
      boolean preferIsolated, boolean preferShared, List<String> reservedNamespaces) {
    return options(
        preferIsolated,
        preferShared
            ? TopologyAwareOptions.SharedCpus.FRACTIONAL
            : TopologyAwareOptions.SharedCpus.NONE,
        reservedNamespaces);
  }

  /** Options with these preferences and reserved namespaces, the rest defaults. */
  static TopologyAwareOptions options(
      boolean preferIsolated,
      TopologyAwareOptions.SharedCpus preferShared,
      List<String> reservedNamespaces) {
    return TopologyAwareOptions.builder()
        .preferIsolatedCpus(preferIsolated)
        .preferSharedCpus(preferShared)
        .reservedPoolNamespaces(reservedNamespaces)
        .build();
  }
}
