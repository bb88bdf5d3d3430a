package io.criresmgr.proxy.core.cri;

import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxState;
import io.criresmgr.api.runtime.v1.PodSandboxStatusResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.PodResourcesAnnotation;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.SharedStrings;
import java.util.Map;

/** Builds cache {@link Pod} records from CRI pod sandbox messages. */
public final class PodCodec {
  private PodCodec() {}

  /**
   * The pod kubelet asked for, once the runtime created it as {@code sandboxId}: identity, labels
   * and annotations from the config, QoS class from its cgroup parent, per-container resources from
   * the webhook's annotation. Its UID, namespace, labels and annotations are the {@link
   * SharedStrings} copies, which its containers' labels share.
   *
   * @throws IllegalArgumentException if the webhook's resource annotation is malformed
   */
  public static Pod fromRequest(String sandboxId, RunPodSandboxRequest request) {
    PodSandboxConfig config = request.getConfig();
    var metadata = config.getMetadata();
    String cgroupParent = config.getLinux().getCgroupParent();
    return new Pod(
        sandboxId,
        SharedStrings.of(metadata.getUid()),
        metadata.getName(),
        SharedStrings.of(metadata.getNamespace()),
        SharedStrings.of(config.getLabelsMap()),
        SharedStrings.of(config.getAnnotationsMap()),
        cgroupParent,
        QosClass.fromCgroupParent(cgroupParent),
        resources(config.getAnnotationsMap()),
        true);
  }

  /**
   * A pod found in the runtime at start-up: identity, labels, annotations and state from the {@code
   * ListPodSandbox} item, the cgroup parent from the verbose {@code PodSandboxStatus} (see {@link
   * #cgroupParent(PodSandboxStatusResponse)}).
   *
   * @throws IllegalArgumentException if the webhook's resource annotation is malformed
   */
  public static Pod fromStatus(PodSandbox listItem, PodSandboxStatusResponse verboseStatus) {
    var metadata = listItem.getMetadata();
    String cgroupParent = cgroupParent(verboseStatus);
    return new Pod(
        listItem.getId(),
        SharedStrings.of(metadata.getUid()),
        metadata.getName(),
        SharedStrings.of(metadata.getNamespace()),
        SharedStrings.of(listItem.getLabelsMap()),
        SharedStrings.of(listItem.getAnnotationsMap()),
        cgroupParent,
        QosClass.fromCgroupParent(cgroupParent),
        resources(listItem.getAnnotationsMap()),
        listItem.getState() == PodSandboxState.SANDBOX_READY);
  }

  /**
   * The pod's cgroup parent from a verbose {@code PodSandboxStatus}, as cri-resmgr reads it:
   * containerd's {@code info["info"].config.linux.cgroup_parent}, else CRI-O's {@code
   * info["info"].runtimeSpec.annotations["io.kubernetes.cri-o.CgroupParent"]}; empty if neither is
   * there or the JSON is malformed (logged).
   */
  public static String cgroupParent(PodSandboxStatusResponse verboseStatus) {
    return SandboxInfo.cgroupParent(
        verboseStatus.getStatus().getId(), verboseStatus.getInfoMap().get(SandboxInfo.KEY));
  }

  private static PodResources resources(Map<String, String> annotations) {
    // Without either annotation the answer is NONE; checked here so that a pod without the
    // webhook never depends on the annotation parser.
    if (!annotations.containsKey(PodResourcesAnnotation.KEY)
        && !annotations.containsKey(PodResourcesAnnotation.LEGACY_KEY)) {
      return PodResources.NONE;
    }
    return PodResourcesAnnotation.fromAnnotations(annotations);
  }
}
