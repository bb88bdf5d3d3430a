package io.criresmgr.proxy.core.cri;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.ResourceEstimator;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.SharedStrings;
import io.criresmgr.policy.sysfs.DeviceHints;
import java.util.ArrayList;
import java.util.List;

/** Builds cache {@link Container} records from CRI container messages. */
public final class ContainerCodec {
  private ContainerCodec() {}

  /**
   * The cache id of container {@code name} of {@code pod}: {@code <podUID>:<name>}. A pod without
   * UID uses its sandbox id instead, which is unique and survives a restart; cri-resmgr uses a
   * counter ({@code cache:<n>}) there, which a re-created container would not find again.
   */
  public static String cacheId(Pod pod, String name) {
    return Container.cacheId(pod.uid().isEmpty() ? pod.id() : pod.uid(), name);
  }

  /** {@link #fromRequest(String, long, Pod, CreateContainerRequest, long)}, capacity unknown. */
  public static Container fromRequest(
      String cacheId, long seq, Pod pod, CreateContainerRequest request) {
    return fromRequest(cacheId, seq, pod, request, 0);
  }

  /**
   * The container kubelet asks to create, before the runtime has seen it: state {@link
   * ContainerState#CREATING}, no runtime id, no assignment. Requests and limits come from the pod's
   * resource annotation, else they are estimated from the requested linux resources, a Burstable
   * container's memory request from its OOM score adjustment and the node's {@code memoryCapacity}
   * (0: unknown, no memory request). Its name, image, labels and annotations are the {@link
   * SharedStrings} copies.
   */
  public static Container fromRequest(
      String cacheId, long seq, Pod pod, CreateContainerRequest request, long memoryCapacity) {
    ContainerConfig config = request.getConfig();
    String name = SharedStrings.of(config.getMetadata().getName());
    LinuxContainerResources linux = config.getLinux().getResources();
    LinuxResources requested = LinuxResourcesCodec.fromProto(linux);
    return Container.builder()
        .cacheId(cacheId)
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .initContainer(pod.resources().runsToCompletion(name))
        .labels(SharedStrings.of(config.getLabelsMap()))
        .annotations(SharedStrings.of(config.getAnnotationsMap()))
        .image(SharedStrings.of(config.getImage().getImage()))
        .state(ContainerState.CREATING)
        .requested(requested)
        .resources(resources(pod, name, requested, linux.getOomScoreAdj(), memoryCapacity))
        .qosClass(pod.qosClass())
        .seq(seq)
        .build();
  }

  /**
   * The mounts and devices of {@code config} as {@link DeviceHints} reads them: a device the
   * container may only read ({@code permissions} without {@code w}) is read-only; CDI devices have
   * no host path and are left out.
   */
  public static List<DeviceHints.Use> uses(ContainerConfig config) {
    List<DeviceHints.Use> uses = new ArrayList<>();
    for (Mount m : config.getMountsList()) {
      uses.add(new DeviceHints.Use(m.getHostPath(), m.getContainerPath(), m.getReadonly()));
    }
    for (Device d : config.getDevicesList()) {
      String p = d.getPermissions();
      boolean readOnly = !p.isEmpty() && !p.contains("w");
      uses.add(new DeviceHints.Use(d.getHostPath(), d.getContainerPath(), readOnly));
    }
    return uses;
  }

  /** {@link #fromStatus(String, long, Pod, ContainerStatus, long)}, capacity unknown. */
  public static Container fromStatus(String cacheId, long seq, Pod pod, ContainerStatus status) {
    return fromStatus(cacheId, seq, pod, status, 0);
  }

  /**
   * A container found in the runtime at start-up, in the state the runtime reports (see {@link
   * ContainerStates#fromProto}). Its requested resources are the ones recorded in its {@link
   * RequestedAnnotation} at creation, else the ones the runtime reports in {@code resources.linux}
   * (none if it reports none); requests and limits as in {@link #fromRequest}: the pod's resource
   * annotation, else estimated from the requested resources and the OOM score adjustment the
   * runtime reports (which no policy rewrites).
   */
  public static Container fromStatus(
      String cacheId, long seq, Pod pod, ContainerStatus status, long memoryCapacity) {
    String name = SharedStrings.of(status.getMetadata().getName());
    LinuxContainerResources linux = status.getResources().getLinux();
    LinuxResources reported =
        status.hasResources() && status.getResources().hasLinux()
            ? LinuxResourcesCodec.fromProto(linux)
            : LinuxResources.NONE;
    LinuxResources requested =
        RequestedAnnotation.requested(cacheId, status.getAnnotationsMap(), reported);
    return Container.builder()
        .cacheId(cacheId)
        .id(status.getId())
        .podId(pod.id())
        .name(name)
        .namespace(pod.namespace())
        .initContainer(pod.resources().runsToCompletion(name))
        .labels(SharedStrings.of(status.getLabelsMap()))
        .annotations(SharedStrings.of(RequestedAnnotation.without(status.getAnnotationsMap())))
        .image(SharedStrings.of(status.getImage().getImage()))
        .state(ContainerStates.fromProto(status.getState()))
        .requested(requested)
        .resources(resources(pod, name, requested, linux.getOomScoreAdj(), memoryCapacity))
        .qosClass(pod.qosClass())
        .seq(seq)
        .build();
  }

  private static Resources resources(
      Pod pod, String name, LinuxResources requested, long oomScoreAdj, long memoryCapacity) {
    return pod.resources()
        .find(name)
        .orElseGet(
            () ->
                ResourceEstimator.estimate(requested, pod.qosClass(), oomScoreAdj, memoryCapacity));
  }
}
