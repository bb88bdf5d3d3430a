package io.criresmgr.controllers.memoryqos;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.controllers.NodeView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/** A node of cache pods and containers for the controller's hooks; mutable, test thread only. */
final class FakeNode implements NodeView {
  /** The cgroupfs parent of the test pods (burstable, as the manual test pod is). */
  static final String PARENT = "/kubepods/burstable/pod-uid";

  private static final AtomicLong SEQ = new AtomicLong();

  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final List<Container> containers = new ArrayList<>();

  /** Adds pod {@code id} with {@code annotations} under {@code cgroupParent}; returns it. */
  Pod pod(String id, Map<String, String> annotations, String cgroupParent) {
    Pod pod =
        new Pod(
            id,
            "uid-" + id,
            "pod-" + id,
            "default",
            Map.of(),
            annotations,
            cgroupParent,
            QosClass.BURSTABLE,
            PodResources.NONE,
            true);
    pods.put(id, pod);
    return pod;
  }

  /** Adds pod {@code id} with {@code annotations} under {@link #PARENT}. */
  Pod pod(String id, Map<String, String> annotations) {
    return pod(id, annotations, PARENT);
  }

  /** Adds a container to the active ones; returns it. */
  Container add(Container c) {
    containers.add(c);
    return c;
  }

  /** Container {@code name} of pod {@code podId} with runtime id {@code id} and memory limit. */
  static Container container(
      String podId, String name, String id, long limitBytes, ContainerState state) {
    LinuxResources requested = new LinuxResources(0, 0, 0, limitBytes, "", "", Map.of());
    return new Container(
        "uid-" + podId + ":" + name,
        id,
        podId,
        name,
        "default",
        false,
        Map.of(),
        Map.of(),
        "busybox",
        state,
        requested,
        Resources.NONE,
        QosClass.BURSTABLE,
        Assignment.NONE,
        Set.of(),
        SEQ.incrementAndGet());
  }

  /** A container being created (no runtime id yet). */
  static Container creating(String podId, String name, long limitBytes) {
    return container(podId, name, "", limitBytes, ContainerState.CREATING);
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return Optional.ofNullable(pods.get(podId));
  }

  @Override
  public List<Container> activeContainers() {
    return containers.stream().filter(c -> c.state().isActive()).toList();
  }

  @Override
  public Map<String, CpuSet> cpuClasses() {
    return Map.of();
  }
}
