package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ListContainersRequest;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The handlers of every intercepted method.
 *
 * @param pods RunPodSandbox, StopPodSandbox, RemovePodSandbox
 * @param create CreateContainer
 * @param containers StartContainer, StopContainer, RemoveContainer
 * @param update UpdateContainerResources
 * @param list ListContainers
 * @param section the serialized section (for the listing stamp)
 */
public record Requests(
    PodRequests pods,
    CreateRequests create,
    ContainerRequests containers,
    UpdateRequests update,
    ListRequests list,
    Section section) {
  /** Checks for nulls. */
  public Requests {
    Objects.requireNonNull(pods, "pods");
    Objects.requireNonNull(create, "create");
    Objects.requireNonNull(containers, "containers");
    Objects.requireNonNull(update, "update");
    Objects.requireNonNull(list, "list");
    Objects.requireNonNull(section, "section");
  }

  /** ListContainers, stamped before the runtime is asked; the reply as the runtime's bytes. */
  public CompletableFuture<byte[]> listContainers(ListContainersRequest request, CallScope scope) {
    return list.list(request, scope, section.stamp());
  }
}
