package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.KeyValue;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import io.criresmgr.proxy.core.cri.RequestedAnnotation;
import java.util.Optional;

/**
 * Writes controllers' {@link ContainerEdits} into a CreateContainer request: the linux resources
 * first, then the unified files claimed by controllers on top; records what the container requested
 * in an annotation the runtime keeps; and mounts its exported resources.
 */
final class CreateRewriter {
  private CreateRewriter() {}

  /**
   * The request the runtime gets: {@code request} with the edits applied, {@code requested} (the
   * container's requested resources as the cache records them) in the {@link RequestedAnnotation},
   * replacing any value kubelet sent (the runtime keeps it, so the requests survive the loss of the
   * cache), and {@code mount} in place of any mount at the same container path. One builder pass
   * over the container's config: every CreateContainer goes through here (docs/benchmarks.md,
   * "Issue 20: the intercepted path, a third time").
   */
  static CreateContainerRequest rewrite(
      CreateContainerRequest request,
      ContainerEdits edits,
      LinuxResources requested,
      Optional<Mount> mount) {
    ContainerConfig.Builder config = request.getConfig().toBuilder();
    apply(config, edits);
    config.putAnnotations(RequestedAnnotation.KEY, RequestedAnnotation.format(requested));
    mount.ifPresent(m -> replaceMount(config, m));
    return request.toBuilder().setConfig(config).build();
  }

  /** The linux resources first, then the unified files claimed on top, annotations, env. */
  private static void apply(ContainerConfig.Builder config, ContainerEdits edits) {
    if (edits.linuxResources().isPresent() || !edits.unified().isEmpty()) {
      LinuxContainerResources.Builder r = config.getLinuxBuilder().getResourcesBuilder();
      edits.linuxResources().ifPresent(linux -> LinuxResourcesCodec.set(r, linux));
      r.putAllUnified(edits.unified());
    }
    config.putAllAnnotations(edits.annotations());
    edits.env().forEach((k, v) -> config.addEnvs(KeyValue.newBuilder().setKey(k).setValue(v)));
  }

  /** Replaces the mounts at {@code mount}'s container path with {@code mount}, added last. */
  private static void replaceMount(ContainerConfig.Builder config, Mount mount) {
    for (int i = config.getMountsCount() - 1; i >= 0; i--) {
      if (config.getMounts(i).getContainerPath().equals(mount.getContainerPath())) {
        config.removeMounts(i);
      }
    }
    config.addMounts(mount);
  }
}
