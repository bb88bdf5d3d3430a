package io.criresmgr.cache.adjustment;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.Map;

/** Pods and containers for the adjustment tests. */
final class Workload {
  private Workload() {}

  /** Pod {@code name} in {@code namespace} with {@code labels} and QoS class {@code qos}. */
  static Pod pod(String name, String namespace, Map<String, String> labels, QosClass qos) {
    return new Pod(
        "sandbox-" + name,
        "uid-" + name,
        name,
        namespace,
        labels,
        Map.of(),
        "/kubepods/pod" + name,
        qos,
        PodResources.NONE,
        true);
  }

  /** Container {@code name} of {@code pod}, with the pod's QoS class and 500m CPU if not BE. */
  static Container container(Pod pod, String name) {
    Resources r =
        pod.qosClass() == QosClass.BEST_EFFORT ? Resources.NONE : new Resources(500, 1000, 0, 0);
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .id("ctr-" + name)
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .labels(Map.of("io.kubernetes.container.name", name))
        .image("busybox")
        .state(ContainerState.RUNNING)
        .resources(r)
        .qosClass(pod.qosClass())
        .seq(1)
        .build();
  }
}
