package io.criresmgr.cache;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A container as the cache knows it. Immutable: the cache replaces the whole container on change. A
 * value with a record's accessors, equality and text; a class, not a record, so that a copy with
 * another assignment or pending marks shares everything else in one object: a decision re-assigns
 * hundreds of containers, each copied twice (marked pending, then cleared), and 18 fields per copy
 * were a sixth of an exclusive grant's garbage (docs/benchmarks.md, "Issue 20: re-assigned
 * containers, fourth round").
 */
public final class Container {
  /**
   * Creation order, as {@link NodeState#containers()} lists them: by {@link #seq}, then by cache
   * id.
   */
  public static final Comparator<Container> CREATION_ORDER = Container::compareCreation;

  /**
   * Every field but the assignment and the pending marks, shared by copies that change only those.
   */
  private record Fixed(
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
      long seq,
      Adjustment adjustment,
      List<TopologyHint> topologyHints) {}

  private final Fixed fixed;
  private final Assignment assignment;
  private final SortedNames pending;

  /**
   * Checks for nulls, copies the collections and sorts {@code pending}; collections that are
   * immutable already (those of another container) are kept, not copied.
   */
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
      Adjustment adjustment,
      List<TopologyHint> topologyHints) {
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
    this.fixed =
        new Fixed(
            cacheId,
            id,
            podId,
            name,
            namespace,
            initContainer,
            Map.copyOf(labels),
            Map.copyOf(annotations),
            image,
            state,
            requested,
            resources,
            qosClass,
            seq,
            adjustment,
            List.copyOf(topologyHints));
    this.assignment = assignment;
    this.pending = SortedNames.of(pending);
  }

  private Container(Fixed fixed, Assignment assignment, SortedNames pending) {
    this.fixed = fixed;
    this.assignment = assignment;
    this.pending = pending;
  }

  /** {@code <podUID>:<containerName>}, stable across re-creations. */
  public String cacheId() {
    return fixed.cacheId();
  }

  /** The runtime's container id; empty until CreateContainer succeeded. */
  public String id() {
    return fixed.id();
  }

  /** The runtime's sandbox id of its pod. */
  public String podId() {
    return fixed.podId();
  }

  /** Container name. */
  public String name() {
    return fixed.name();
  }

  /** Pod namespace. */
  public String namespace() {
    return fixed.namespace();
  }

  /**
   * Whether the pod's resource annotation lists it as an init container that runs to completion; a
   * native sidecar ({@code restartPolicy: Always}) keeps running and is not one.
   */
  public boolean initContainer() {
    return fixed.initContainer();
  }

  /** Container labels. */
  public Map<String, String> labels() {
    return fixed.labels();
  }

  /** Container annotations. */
  public Map<String, String> annotations() {
    return fixed.annotations();
  }

  /** Image reference. */
  public String image() {
    return fixed.image();
  }

  /** Life-cycle state. */
  public ContainerState state() {
    return fixed.state();
  }

  /** Linux resources kubelet asked for (CreateContainer or its last update). */
  public LinuxResources requested() {
    return fixed.requested();
  }

  /** Requests and limits (from the webhook annotation, else estimated). */
  public Resources resources() {
    return fixed.resources();
  }

  /** The pod's QoS class. */
  public QosClass qosClass() {
    return fixed.qosClass();
  }

  /** The policy's current decision. */
  public Assignment assignment() {
    return assignment;
  }

  /** Controllers that have not enforced {@code assignment} yet. */
  public Set<String> pending() {
    return pending;
  }

  /** Creation order in the cache (larger is newer). */
  public long seq() {
    return fixed.seq();
  }

  /** The external adjustment in effect ({@link Adjustment#NONE} without one). */
  public Adjustment adjustment() {
    return fixed.adjustment();
  }

  /** Where the devices it uses sit, from sysfs at creation (empty: none known). */
  public List<TopologyHint> topologyHints() {
    return fixed.topologyHints();
  }

  private static int compareCreation(Container a, Container b) {
    int bySeq = Long.compare(a.seq(), b.seq());
    return bySeq != 0 ? bySeq : a.cacheId().compareTo(b.cacheId());
  }

  /** Equal if every field is, as a record. */
  @Override
  public boolean equals(@Nullable Object o) {
    return o == this
        || (o instanceof Container c
            && fixed.equals(c.fixed)
            && assignment.equals(c.assignment)
            && pending.equals(c.pending));
  }

  @Override
  public int hashCode() {
    return (fixed.hashCode() * 31 + assignment.hashCode()) * 31 + pending.hashCode();
  }

  /** The fields as a record shows them, in declaration order. */
  @Override
  public String toString() {
    return "Container["
        + "cacheId="
        + cacheId()
        + ", id="
        + id()
        + ", podId="
        + podId()
        + ", name="
        + name()
        + ", namespace="
        + namespace()
        + ", initContainer="
        + initContainer()
        + ", labels="
        + labels()
        + ", annotations="
        + annotations()
        + ", image="
        + image()
        + ", state="
        + state()
        + ", requested="
        + requested()
        + ", resources="
        + resources()
        + ", qosClass="
        + qosClass()
        + ", assignment="
        + assignment()
        + ", pending="
        + pending()
        + ", seq="
        + seq()
        + ", adjustment="
        + adjustment()
        + ", topologyHints="
        + topologyHints()
        + "]";
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
    return with(value, pending.with(markPending));
  }

  /** A copy with {@code controller} no longer pending (this container if it was not). */
  @SuppressWarnings("ReferenceEquality") // without gives the same set back when nothing changed
  public Container withoutPending(String controller) {
    SortedNames rest = pending.without(controller);
    return rest == pending ? this : with(assignment, rest);
  }

  /**
   * True if {@code other} differs from this at most in its assignment and pending controllers (the
   * cache journal then writes only those: docs/cache-format.md, "Patches inside containers").
   */
  @SuppressWarnings("ReferenceEquality") // shared fields are equal without comparing them
  boolean sameButAssignment(Container other) {
    return other.fixed == fixed || other.fixed.equals(fixed);
  }

  /** A copy with another assignment and pending controllers, sharing every other field. */
  private Container with(Assignment newAssignment, SortedNames newPending) {
    return new Container(fixed, newAssignment, newPending);
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
    return fixed.adjustment().applyTo(fixed.resources());
  }

  /** The linux resources the runtime should apply: the request with the assignment applied. */
  public LinuxResources effectiveResources() {
    return assignment.applyTo(fixed.requested());
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
      cacheId = c.cacheId();
      id = c.id();
      podId = c.podId();
      name = c.name();
      namespace = c.namespace();
      initContainer = c.initContainer();
      labels = c.labels();
      annotations = c.annotations();
      image = c.image();
      state = c.state();
      requested = c.requested();
      resources = c.resources();
      qosClass = c.qosClass();
      assignment = c.assignment();
      pending = c.pending();
      seq = c.seq();
      adjustment = c.adjustment();
      topologyHints = c.topologyHints();
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
