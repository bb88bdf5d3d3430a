package io.criresmgr.cache;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A container as the cache knows it. Immutable: the cache replaces the whole record on change.
 *
 * @param cacheId {@code <podUID>:<containerName>}, stable across re-creations
 * @param id the runtime's container id; empty until CreateContainer succeeded
 * @param podId the runtime's sandbox id of its pod
 * @param name container name
 * @param namespace pod namespace
 * @param initContainer whether the pod's resource annotation lists it as an init container that
 *     runs to completion; a native sidecar ({@code restartPolicy: Always}) keeps running and is not
 *     one
 * @param labels container labels
 * @param annotations container annotations
 * @param image image reference
 * @param state life-cycle state
 * @param requested linux resources kubelet asked for (CreateContainer or its last update)
 * @param resources requests and limits (from the webhook annotation, else estimated)
 * @param qosClass the pod's QoS class
 * @param assignment the policy's current decision
 * @param pending controllers that have not enforced {@code assignment} yet
 * @param seq creation order in the cache (larger is newer)
 * @param adjustment the external adjustment in effect ({@link Adjustment#NONE} without one)
 * @param topologyHints where the devices it uses sit, from sysfs at creation (empty: none known)
 */
public record Container(
    String cacheId,
    String id,
    String podId,
    String name,
    String namespace,
    boolean initContainer,
    Map<String, String> labels,
    Map<String, String> annotations,
    String image,
    ContainerState state,
    LinuxResources requested,
    Resources resources,
    QosClass qosClass,
    Assignment assignment,
    Set<String> pending,
    long seq,
    Adjustment adjustment,
    List<TopologyHint> topologyHints) {
  /** Checks for nulls, copies the collections and sorts {@code pending}. */
  public Container {
    Objects.requireNonNull(cacheId, "cacheId");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(podId, "podId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(requested, "requested");
    Objects.requireNonNull(resources, "resources");
    Objects.requireNonNull(qosClass, "qosClass");
    Objects.requireNonNull(assignment, "assignment");
    Objects.requireNonNull(adjustment, "adjustment");
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    pending = java.util.Collections.unmodifiableSet(new TreeSet<>(pending));
    topologyHints = List.copyOf(topologyHints);
  }

  /** A container without topology hints. */
  public Container(
      String cacheId,
      String id,
      String podId,
      String name,
      String namespace,
      boolean initContainer,
      Map<String, String> labels,
      Map<String, String> annotations,
      String image,
      ContainerState state,
      LinuxResources requested,
      Resources resources,
      QosClass qosClass,
      Assignment assignment,
      Set<String> pending,
      long seq,
      Adjustment adjustment) {
    this(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        adjustment,
        List.of());
  }

  /** A container without an adjustment. */
  public Container(
      String cacheId,
      String id,
      String podId,
      String name,
      String namespace,
      boolean initContainer,
      Map<String, String> labels,
      Map<String, String> annotations,
      String image,
      ContainerState state,
      LinuxResources requested,
      Resources resources,
      QosClass qosClass,
      Assignment assignment,
      Set<String> pending,
      long seq) {
    this(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        Adjustment.NONE);
  }

  /**
   * The cache id of a container: {@code <podUID>:<name>}, with {@code %} and {@code :} in either
   * part escaped as {@code %25} and {@code %3A}, so that no two pairs share an id (Kubernetes UIDs
   * and names never contain them, so kubelet's containers keep the ids of earlier versions).
   */
  public static String cacheId(String podUid, String name) {
    return escape(podUid) + ":" + escape(name);
  }

  private static String escape(String part) {
    return part.indexOf('%') < 0 && part.indexOf(':') < 0
        ? part
        : part.replace("%", "%25").replace(":", "%3A");
  }

  /** A copy that is ({@code value}) an init container running to completion or not. */
  public Container withInitContainer(boolean value) {
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        value,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        adjustment);
  }

  /** A copy with another runtime id. */
  public Container withId(String value) {
    return new Container(
        cacheId,
        value,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        adjustment,
        topologyHints);
  }

  /** A copy in another state. */
  public Container withState(ContainerState value) {
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        value,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        adjustment,
        topologyHints);
  }

  /** A copy with other requested resources and requests/limits. */
  public Container withRequested(LinuxResources value, Resources estimated) {
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        value,
        estimated,
        qosClass,
        assignment,
        pending,
        seq,
        adjustment,
        topologyHints);
  }

  /** A copy with another assignment and the given controllers marked pending. */
  public Container withAssignment(Assignment value, Set<String> markPending) {
    Set<String> all = new TreeSet<>(pending);
    all.addAll(markPending);
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        value,
        all,
        seq,
        adjustment,
        topologyHints);
  }

  /** A copy with {@code controller} no longer pending. */
  public Container withoutPending(String controller) {
    Set<String> rest = new TreeSet<>(pending);
    rest.remove(controller);
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        rest,
        seq,
        adjustment,
        topologyHints);
  }

  /** A copy under another adjustment ({@link Adjustment#NONE}: none). */
  public Container withAdjustment(Adjustment value) {
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        value,
        topologyHints);
  }

  /** A copy with other topology hints. */
  public Container withTopologyHints(List<TopologyHint> value) {
    return new Container(
        cacheId,
        id,
        podId,
        name,
        namespace,
        initContainer,
        labels,
        annotations,
        image,
        state,
        requested,
        resources,
        qosClass,
        assignment,
        pending,
        seq,
        adjustment,
        value);
  }

  /**
   * The requests and limits policies place by: {@link #resources} with the adjustment's override
   * applied. {@link #resources} stays what the pod asked for, so removing the adjustment restores
   * it.
   */
  public Resources adjustedResources() {
    return adjustment.applyTo(resources);
  }

  /** The linux resources the runtime should apply: the request with the assignment applied. */
  public LinuxResources effectiveResources() {
    return assignment.applyTo(requested);
  }
}
