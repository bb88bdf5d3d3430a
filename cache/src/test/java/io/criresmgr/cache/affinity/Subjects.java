package io.criresmgr.cache.affinity;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.Map;

/** Pods and containers to evaluate expressions and affinities against. */
final class Subjects {
  private Subjects() {}

  /**
   * Pod {@code name} in {@code namespace}: sandbox id {@code sandbox-<name>}, UID {@code
   * uid-<name>}.
   */
  static Pod pod(
      String name, String namespace, Map<String, String> labels, Map<String, String> annotations) {
    return new Pod(
        "sandbox-" + name,
        "uid-" + name,
        name,
        namespace,
        labels,
        annotations,
        "/kubepods/burstable/pod" + name,
        QosClass.BURSTABLE,
        PodResources.NONE,
        true);
  }

  /** Pod {@code name} in namespace {@code default} with {@code annotations}. */
  static Pod pod(String name, Map<String, String> annotations) {
    return pod(name, "default", Map.of(), annotations);
  }

  /** Container {@code name} of {@code pod} with {@code labels}, runtime id {@code ctr-<name>}. */
  static Container container(Pod pod, String name, Map<String, String> labels) {
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), name))
        .id("ctr-" + name)
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .labels(labels)
        .image("busybox")
        .state(ContainerState.RUNNING)
        .resources(Resources.NONE)
        .qosClass(pod.qosClass())
        .build();
  }

  /** Container {@code name} of {@code pod} labelled as kubelet does. */
  static Container container(Pod pod, String name) {
    return container(pod, name, Map.of("io.kubernetes.container.name", name));
  }
}
