package io.criresmgr.controllers.cgroups;

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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A node of one pod ({@value #SANDBOX}) and the given containers, with cache records built the way
 * the pipeline builds them.
 */
record FakeNode(Pod pod, List<Container> containers) implements NodeView {
  static final String SANDBOX = "sandbox-1";

  FakeNode {
    containers = List.copyOf(containers);
  }

  /** A node whose pod has {@code cgroupParent}. */
  static FakeNode withParent(String cgroupParent, Container... containers) {
    return new FakeNode(burstablePod(cgroupParent), List.of(containers));
  }

  /** The burstable pod {@value #SANDBOX} with {@code cgroupParent}. */
  static Pod burstablePod(String cgroupParent) {
    return new Pod(
        SANDBOX,
        "pod1-uid",
        "pod1",
        "default",
        Map.of(),
        Map.of(),
        cgroupParent,
        QosClass.BURSTABLE,
        PodResources.NONE,
        true);
  }

  /** A container of the pod with runtime id {@code id}. */
  static Container container(
      String id,
      ContainerState state,
      LinuxResources requested,
      Assignment assignment,
      Set<String> pending) {
    return new Container(
        "pod1-uid:" + id,
        id,
        SANDBOX,
        id,
        "default",
        false,
        Map.of(),
        Map.of(),
        "busybox",
        state,
        requested,
        Resources.NONE,
        QosClass.BURSTABLE,
        assignment,
        pending,
        1);
  }

  /** A running container of the pod, pinned to {@code cpus}, nothing pending. */
  static Container running(String id, LinuxResources requested, String cpus) {
    Assignment pinned = Assignment.NONE.withCpus(CpuSet.parse(cpus));
    return container(id, ContainerState.RUNNING, requested, pinned, Set.of());
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return pod.id().equals(podId) ? Optional.of(pod) : Optional.empty();
  }

  @Override
  public List<Container> activeContainers() {
    return containers;
  }

  @Override
  public Map<String, CpuSet> cpuClasses() {
    return Map.of();
  }
}
