package io.criresmgr.controllers.memoryqos;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.FakeNode;
import java.util.Map;

/** The burstable pods and memory-limited containers of the memory-qos controller tests. */
final class MemoryQosFixture {
  /** The cgroupfs parent of the test pods (burstable, as the manual test pod is). */
  static final String PARENT = "/kubepods/burstable/pod-uid";

  private MemoryQosFixture() {}

  /** Burstable pod {@code id} with {@code annotations} under {@code cgroupParent}. */
  static Pod pod(String id, Map<String, String> annotations, String cgroupParent) {
    return FakeNode.podBuilder(id)
        .annotations(annotations)
        .cgroupParent(cgroupParent)
        .qos(QosClass.BURSTABLE)
        .build();
  }

  /** Burstable pod {@code id} with {@code annotations} under {@link #PARENT}. */
  static Pod pod(String id, Map<String, String> annotations) {
    return pod(id, annotations, PARENT);
  }

  /** Container {@code name} of pod {@code podId} with runtime id {@code id} and memory limit. */
  static Container container(
      String podId, String name, String id, long limitBytes, ContainerState state) {
    return FakeNode.containerBuilder(podId, name)
        .id(id)
        .state(state)
        .memoryLimit(limitBytes)
        .build();
  }

  /** A container being created (no runtime id yet). */
  static Container creating(String podId, String name, long limitBytes) {
    return container(podId, name, "", limitBytes, ContainerState.CREATING);
  }
}
