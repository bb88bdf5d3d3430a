package io.criresmgr.controllers.memtierd;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.NodeView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A node of pods and containers that tests change at will. */
final class FakeNode implements NodeView {
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final Map<String, Container> containers = new LinkedHashMap<>();

  FakeNode put(Pod pod) {
    pods.put(pod.id(), pod);
    return this;
  }

  FakeNode put(Container container) {
    containers.put(container.cacheId(), container);
    return this;
  }

  FakeNode removePod(String podId) {
    pods.remove(podId);
    containers.values().removeIf(c -> c.podId().equals(podId));
    return this;
  }

  FakeNode removeContainer(String cacheId) {
    containers.remove(cacheId);
    return this;
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return Optional.ofNullable(pods.get(podId));
  }

  @Override
  public List<Container> activeContainers() {
    return containers.values().stream().filter(c -> c.state().isActive()).toList();
  }

  @Override
  public Map<String, CpuSet> cpuClasses() {
    return Map.of();
  }
}
