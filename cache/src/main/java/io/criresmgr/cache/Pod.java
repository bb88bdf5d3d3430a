package io.criresmgr.cache;

import java.util.Map;
import java.util.Objects;

/**
 * A pod sandbox as the cache knows it.
 *
 * @param id the runtime's sandbox id
 * @param uid the Kubernetes pod UID (empty if kubelet gave none)
 * @param name pod name
 * @param namespace pod namespace
 * @param labels sandbox labels
 * @param annotations sandbox annotations
 * @param cgroupParent the pod's cgroup parent as kubelet gave it
 * @param qosClass QoS class derived from {@code cgroupParent}
 * @param resources per-container resources from the webhook annotation
 * @param ready false once the sandbox was stopped
 */
public record Pod(
    String id,
    String uid,
    String name,
    String namespace,
    Map<String, String> labels,
    Map<String, String> annotations,
    String cgroupParent,
    QosClass qosClass,
    PodResources resources,
    boolean ready) {
  /** Checks for nulls and copies the maps. */
  public Pod {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(cgroupParent, "cgroupParent");
    Objects.requireNonNull(qosClass, "qosClass");
    Objects.requireNonNull(resources, "resources");
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
  }

  /** A copy with another readiness. */
  public Pod withReady(boolean value) {
    return new Pod(
        id, uid, name, namespace, labels, annotations, cgroupParent, qosClass, resources, value);
  }

  /**
   * The effective value of an annotation for one container, looked up as cri-resmgr does: {@code
   * key/container.<name>}, then {@code key/pod}, then {@code key}; null if none is set.
   */
  public @org.jspecify.annotations.Nullable String effectiveAnnotation(
      String key, String containerName) {
    String value = annotations.get(key + "/container." + containerName);
    if (value == null) {
      value = annotations.get(key + "/pod");
    }
    return value != null ? value : annotations.get(key);
  }
}
