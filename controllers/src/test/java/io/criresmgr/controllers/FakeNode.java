package io.criresmgr.controllers;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A node view over pods and containers a test adds; shared by the controllers' tests. */
public final class FakeNode implements NodeView {
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final List<Container> containers = new ArrayList<>();

  /** Adds {@code pod}. */
  public FakeNode add(Pod pod) {
    pods.put(pod.id(), pod);
    return this;
  }

  /** Adds {@code container} as active. */
  public FakeNode add(Container container) {
    containers.add(container);
    return this;
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return Optional.ofNullable(pods.get(podId));
  }

  @Override
  public List<Container> activeContainers() {
    return List.copyOf(containers);
  }

  @Override
  public Map<String, CpuSet> cpuClasses() {
    return Map.of();
  }

  /** A ready pod {@code id} (name and uid derived from it) with a cgroup parent and annotations. */
  public static Pod pod(String id, String cgroupParent, Map<String, String> annotations) {
    return new Pod(
        id,
        "uid-" + id,
        "pod-" + id,
        "default",
        Map.of(),
        annotations,
        cgroupParent,
        QosClass.fromCgroupParent(cgroupParent),
        PodResources.NONE,
        true);
  }

  /** A running container {@code name} with runtime id {@code id} in pod {@code podId}. */
  public static Container container(
      String id, String podId, String name, QosClass qos, Assignment a, Set<String> pending) {
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
        ContainerState.RUNNING,
        LinuxResources.NONE,
        Resources.NONE,
        qos,
        a,
        pending,
        1);
  }
}
