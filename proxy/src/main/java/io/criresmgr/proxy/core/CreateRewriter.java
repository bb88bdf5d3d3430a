package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;

/**
 * Writes controllers' {@link ContainerEdits} into a CreateContainer request: the linux resources
 * first, then the unified files claimed by controllers on top; and records what the container
 * requested in an annotation the runtime keeps.
 */
final class CreateRewriter {
  private CreateRewriter() {}

  /** {@code request} with the edits applied; the same instance when there are none. */
  static CreateContainerRequest rewrite(CreateContainerRequest request, ContainerEdits edits) {
    if (edits.linuxResources().isEmpty()
        && edits.unified().isEmpty()
        && edits.annotations().isEmpty()
        && edits.env().isEmpty()) {
      return request;
    }
    ContainerConfig.Builder config = request.getConfig().toBuilder();
    edits
        .linuxResources()
        .ifPresent(
            linux -> {
              LinuxContainerConfig.Builder l = config.getLinux().toBuilder();
              l.setResources(LinuxResourcesCodec.applyTo(l.getResources(), linux));
              config.setLinux(l);
            });
    if (!edits.unified().isEmpty()) {
      LinuxContainerConfig.Builder l = config.getLinux().toBuilder();
      l.setResources(l.getResources().toBuilder().putAllUnified(edits.unified()));
      config.setLinux(l);
    }
    config.putAllAnnotations(edits.annotations());
    edits.env().forEach((k, v) -> config.addEnvs(KeyValue.newBuilder().setKey(k).setValue(v)));
    return request.toBuilder().setConfig(config).build();
  }

  /**
   * {@code request} with {@code requested}, the container's requested resources as the cache
   * records them, in the {@link RequestedAnnotation}, replacing any value kubelet sent: the runtime
   * keeps it, so the requests survive the loss of the cache.
   */
  static CreateContainerRequest record(CreateContainerRequest request, LinuxResources requested) {
    ContainerConfig config =
        request.getConfig().toBuilder()
            .putAnnotations(RequestedAnnotation.KEY, RequestedAnnotation.format(requested))
            .build();
    return request.toBuilder().setConfig(config).build();
  }
}
