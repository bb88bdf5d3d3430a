package io.criresmgr.cache;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

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
  /**
   * Checks for nulls, copies the collections and sorts {@code pending}; collections that are
   * immutable already (those of another container) are kept, not copied.
   */
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
    pending = SortedNames.of(pending);
    topologyHints = List.copyOf(topologyHints);
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

  /** A builder with the defaults of a container not created yet; see {@link Builder}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every field of this container, to change some and {@link Builder#build}. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** A copy that is ({@code value}) an init container running to completion or not. */
  public Container withInitContainer(boolean value) {
    return toBuilder().initContainer(value).build();
  }

  /** A copy with another runtime id. */
  public Container withId(String value) {
    return toBuilder().id(value).build();
  }

  /** A copy in another state. */
  public Container withState(ContainerState value) {
    return toBuilder().state(value).build();
  }

  /** A copy with other requested resources and requests/limits. */
  public Container withRequested(LinuxResources value, Resources estimated) {
    return toBuilder().requested(value).resources(estimated).build();
  }

  /** A copy with another assignment and the given controllers marked pending. */
  public Container withAssignment(Assignment value, Set<String> markPending) {
    return with(value, ((SortedNames) pending).with(markPending));
  }

  /** A copy with {@code controller} no longer pending (this container if it was not). */
  public Container withoutPending(String controller) {
    SortedNames rest = ((SortedNames) pending).without(controller);
    return rest == pending ? this : with(assignment, rest);
  }

  /**
   * True if {@code other} differs from this at most in its assignment and pending controllers (the
   * cache journal then writes only those: docs/cache-format.md, "Patches inside containers").
   */
  boolean sameButAssignment(Container other) {
    return other.with(assignment, pending).equals(this);
  }

  /** A copy with another assignment and pending controllers, sharing every other field. */
  private Container with(Assignment newAssignment, Set<String> newPending) {
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
        newAssignment,
        newPending,
        seq,
        adjustment,
        topologyHints);
  }

  /** A copy under another adjustment ({@link Adjustment#NONE}: none). */
  public Container withAdjustment(Adjustment value) {
    return toBuilder().adjustment(value).build();
  }

  /** A copy with other topology hints. */
  public Container withTopologyHints(List<TopologyHint> value) {
    return toBuilder().topologyHints(value).build();
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

  /**
   * Builds a {@link Container}. A new builder has no runtime id ({@code ""}), no labels,
   * annotations, requested resources, assignment, pending controllers, adjustment or topology
   * hints, is no init container and has {@code seq} 0; {@link #build} fails naming the first of
   * {@code cacheId}, {@code podId}, {@code name}, {@code namespace}, {@code image}, {@code state},
   * {@code resources} and {@code qosClass} that was not set.
   */
  public static final class Builder {
    private @Nullable String cacheId;
    private String id = "";
    private @Nullable String podId;
    private @Nullable String name;
    private @Nullable String namespace;
    private boolean initContainer = false;
    private Map<String, String> labels = Map.of();
    private Map<String, String> annotations = Map.of();
    private @Nullable String image;
    private @Nullable ContainerState state;
    private LinuxResources requested = LinuxResources.NONE;
    private @Nullable Resources resources;
    private @Nullable QosClass qosClass;
    private Assignment assignment = Assignment.NONE;
    private Set<String> pending = Set.of();
    private long seq = 0;
    private Adjustment adjustment = Adjustment.NONE;
    private List<TopologyHint> topologyHints = List.of();

    private Builder() {}

    private Builder(Container c) {
      cacheId = c.cacheId;
      id = c.id;
      podId = c.podId;
      name = c.name;
      namespace = c.namespace;
      initContainer = c.initContainer;
      labels = c.labels;
      annotations = c.annotations;
      image = c.image;
      state = c.state;
      requested = c.requested;
      resources = c.resources;
      qosClass = c.qosClass;
      assignment = c.assignment;
      pending = c.pending;
      seq = c.seq;
      adjustment = c.adjustment;
      topologyHints = c.topologyHints;
    }

    /** Sets {@link Container#cacheId}. */
    public Builder cacheId(String value) {
      cacheId = value;
      return this;
    }

    /** Sets {@link Container#id}. */
    public Builder id(String value) {
      id = value;
      return this;
    }

    /** Sets {@link Container#podId}. */
    public Builder podId(String value) {
      podId = value;
      return this;
    }

    /** Sets {@link Container#name}. */
    public Builder name(String value) {
      name = value;
      return this;
    }

    /** Sets {@link Container#namespace}. */
    public Builder namespace(String value) {
      namespace = value;
      return this;
    }

    /** Sets {@link Container#initContainer}. */
    public Builder initContainer(boolean value) {
      initContainer = value;
      return this;
    }

    /** Sets {@link Container#labels}. */
    public Builder labels(Map<String, String> value) {
      labels = value;
      return this;
    }

    /** Sets {@link Container#annotations}. */
    public Builder annotations(Map<String, String> value) {
      annotations = value;
      return this;
    }

    /** Sets {@link Container#image}. */
    public Builder image(String value) {
      image = value;
      return this;
    }

    /** Sets {@link Container#state}. */
    public Builder state(ContainerState value) {
      state = value;
      return this;
    }

    /** Sets {@link Container#requested}. */
    public Builder requested(LinuxResources value) {
      requested = value;
      return this;
    }

    /** Sets {@link Container#resources}. */
    public Builder resources(Resources value) {
      resources = value;
      return this;
    }

    /** Sets {@link Container#qosClass}. */
    public Builder qosClass(QosClass value) {
      qosClass = value;
      return this;
    }

    /** Sets {@link Container#assignment}. */
    public Builder assignment(Assignment value) {
      assignment = value;
      return this;
    }

    /** Sets {@link Container#pending}. */
    public Builder pending(Set<String> value) {
      pending = value;
      return this;
    }

    /** Sets {@link Container#seq}. */
    public Builder seq(long value) {
      seq = value;
      return this;
    }

    /** Sets {@link Container#adjustment}. */
    public Builder adjustment(Adjustment value) {
      adjustment = value;
      return this;
    }

    /** Sets {@link Container#topologyHints}. */
    public Builder topologyHints(List<TopologyHint> value) {
      topologyHints = value;
      return this;
    }

    /** The container; fails if a field without a default was not set. */
    public Container build() {
      return new Container(
          required(cacheId, "cacheId"),
          id,
          required(podId, "podId"),
          required(name, "name"),
          required(namespace, "namespace"),
          initContainer,
          labels,
          annotations,
          required(image, "image"),
          required(state, "state"),
          requested,
          required(resources, "resources"),
          required(qosClass, "qosClass"),
          assignment,
          pending,
          seq,
          adjustment,
          topologyHints);
    }

    private static <T> T required(@Nullable T value, String field) {
      return Objects.requireNonNull(value, () -> "Container." + field + " not set");
    }
  }
}
