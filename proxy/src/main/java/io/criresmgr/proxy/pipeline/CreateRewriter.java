package io.criresmgr.proxy.pipeline;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.proxy.cri.LinuxResourcesCodec;

/**
 * Writes controllers' {@link ContainerEdits} into a CreateContainer request: the linux resources
 * first, then the unified files claimed by controllers on top.
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
}
