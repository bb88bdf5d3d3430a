package io.criresmgr.cache;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Per-container requests and limits from the webhook's pod annotation (docs/webhook.md), keyed by
 * container name, and which init containers are native sidecars.
 *
 * @param initContainers init containers by name
 * @param containers regular containers by name
 * @param sidecars the init containers with {@code restartPolicy: Always}: they start in init order
 *     but keep running with the regular containers
 */
public record PodResources(
    Map<String, Resources> initContainers,
    Map<String, Resources> containers,
    Set<String> sidecars) {
  /** No annotation. */
  public static final PodResources NONE = new PodResources(Map.of(), Map.of());

  /** Copies the collections. */
  public PodResources {
    initContainers = Map.copyOf(initContainers);
    containers = Map.copyOf(containers);
    sidecars = Set.copyOf(sidecars);
  }

  /** Resources without sidecars (an annotation of an older webhook). */
  public PodResources(Map<String, Resources> initContainers, Map<String, Resources> containers) {
    this(initContainers, containers, Set.of());
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

  /** Whether the annotation lists {@code containerName} as a native sidecar init container. */
  public boolean isSidecar(String containerName) {
    return sidecars.contains(containerName);
  }

  /**
   * Whether {@code containerName} is an init container that runs to completion before the next
   * container of the pod starts: an init container that is not a sidecar.
   */
  public boolean runsToCompletion(String containerName) {
    return isInit(containerName) && !isSidecar(containerName);
  }
}
