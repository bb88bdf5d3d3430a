package io.criresmgr.nri;

import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.CreateContainerResponse;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.PodSandbox;
import java.util.List;

/**
 * What a plugin does with the runtime's requests and events. Every method has a default that
 * changes nothing; the plugin subscribes to exactly the events whose methods the implementing class
 * overrides ({@link NriEvents#subscribedBy}), as the Go stub does.
 *
 * <p>Methods run on the plugin's reader thread, one at a time. An exception goes back to the
 * runtime as the call's error (for CreateContainer, the runtime then fails the creation).
 */
public interface NriHandler {
  /** The runtime's configuration for this plugin; always called first, not an event. */
  default void configure(String config, String runtimeName, String runtimeVersion) {}

  /** The pods and containers that exist at connect; returns updates to any of them. */
  default List<ContainerUpdate> synchronize(List<PodSandbox> pods, List<Container> containers) {
    return List.of();
  }

  /** The runtime is shutting down. */
  default void shutdown() {}

  /** Event RunPodSandbox. */
  default void runPodSandbox(PodSandbox pod) {}

  /** Event StopPodSandbox. */
  default void stopPodSandbox(PodSandbox pod) {}

  /** Event RemovePodSandbox. */
  default void removePodSandbox(PodSandbox pod) {}

  /** CreateContainer: the adjustment of the new container and updates to others. */
  default CreateContainerResponse createContainer(PodSandbox pod, Container container) {
    return CreateContainerResponse.getDefaultInstance();
  }

  /** Event PostCreateContainer. */
  default void postCreateContainer(PodSandbox pod, Container container) {}

  /** Event StartContainer. */
  default void startContainer(PodSandbox pod, Container container) {}

  /** Event PostStartContainer. */
  default void postStartContainer(PodSandbox pod, Container container) {}

  /** UpdateContainer to {@code resources}: returns updates, to it or to others. */
  default List<ContainerUpdate> updateContainer(
      PodSandbox pod, Container container, LinuxResources resources) {
    return List.of();
  }

  /** Event PostUpdateContainer. */
  default void postUpdateContainer(PodSandbox pod, Container container) {}

  /** StopContainer: returns updates to the remaining containers. */
  default List<ContainerUpdate> stopContainer(PodSandbox pod, Container container) {
    return List.of();
  }

  /** Event RemoveContainer. */
  default void removeContainer(PodSandbox pod, Container container) {}
}
