package io.criresmgr.cache;

import java.util.Map;
import java.util.Optional;

/**
 * Per-container requests and limits from the webhook's pod annotation (reference §8), keyed by
 * container name.
 *
 * @param initContainers init containers by name
 * @param containers regular containers by name
 */
public record PodResources(
    Map<String, Resources> initContainers, Map<String, Resources> containers) {
  /** No annotation. */
  public static final PodResources NONE = new PodResources(Map.of(), Map.of());

  /** Copies the maps. */
  public PodResources {
    initContainers = Map.copyOf(initContainers);
    containers = Map.copyOf(containers);
  }

  /** The container's entry: init containers first, then regular ones, as cri-resmgr looks up. */
  public Optional<Resources> find(String containerName) {
    Resources init = initContainers.get(containerName);
    return Optional.ofNullable(init != null ? init : containers.get(containerName));
  }

  /** Whether the annotation lists {@code containerName} as an init container. */
  public boolean isInit(String containerName) {
    return initContainers.containsKey(containerName);
  }
}
