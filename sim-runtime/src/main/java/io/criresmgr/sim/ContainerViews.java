package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerResources;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.ImageSpec;

/** Builds the CRI messages that describe a {@link SimContainer}. */
final class ContainerViews {
  private ContainerViews() {}

  /** The {@code ListContainers} item. */
  static Container container(SimContainer c) {
    return Container.newBuilder()
        .setId(c.id())
        .setPodSandboxId(c.podId())
        .setMetadata(c.config().getMetadata())
        .setImage(imageSpec(c))
        .setImageRef(c.image().ref())
        .setImageId(c.image().id())
        .setState(c.state())
        .setCreatedAt(c.times().createdAt())
        .putAllLabels(c.config().getLabelsMap())
        .putAllAnnotations(c.config().getAnnotationsMap())
        .build();
  }

  /** The {@code ContainerStatus} status, with the current linux resources. */
  static ContainerStatus status(SimContainer c) {
    return ContainerStatus.newBuilder()
        .setId(c.id())
        .setMetadata(c.config().getMetadata())
        .setState(c.state())
        .setCreatedAt(c.times().createdAt())
        .setStartedAt(c.times().startedAt())
        .setFinishedAt(c.times().finishedAt())
        .setExitCode(c.exitCode())
        .setReason(c.reason())
        .setImage(imageSpec(c))
        .setImageRef(c.image().ref())
        .setImageId(c.image().id())
        .putAllLabels(c.config().getLabelsMap())
        .putAllAnnotations(c.config().getAnnotationsMap())
        .addAllMounts(c.config().getMountsList())
        .setLogPath(c.logPath())
        .setResources(ContainerResources.newBuilder().setLinux(c.resources()))
        .build();
  }

  /** The image spec exactly as the container was created with it. */
  private static ImageSpec imageSpec(SimContainer c) {
    return c.config().getImage();
  }
}
