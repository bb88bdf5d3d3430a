package io.criresmgr.controllers;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A node view over pods and containers a test adds, changes and removes; shared by the controllers'
 * tests. Like the live cache, {@link #activeContainers()} lists only containers whose state is
 * active, in the order they were first added. Mutable, test thread only.
 */
public final class FakeNode implements NodeView {
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final Map<String, Container> containers = new LinkedHashMap<>();
  private Map<String, CpuSet> cpuClasses = Map.of();

  /** Adds {@code pod}, replacing the one with its id. */
  public FakeNode add(Pod pod) {
    pods.put(pod.id(), pod);
    return this;
  }

  /** Adds {@code container}, replacing the one with its cache id. */
  public FakeNode add(Container container) {
    containers.put(container.cacheId(), container);
    return this;
  }

  /** Adds {@code pod} and returns it. */
  public Pod put(Pod pod) {
    add(pod);
    return pod;
  }

  /** Adds {@code container} and returns it. */
  public Container put(Container container) {
    add(container);
    return container;
  }

  /** Removes pod {@code podId} and its containers. */
  public FakeNode removePod(String podId) {
    pods.remove(podId);
    containers.values().removeIf(c -> c.podId().equals(podId));
    return this;
  }

  /** Removes the container with cache id {@code cacheId}. */
  public FakeNode removeContainer(String cacheId) {
    containers.remove(cacheId);
    return this;
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return Optional.ofNullable(pods.get(podId));
  }

  @Override
  public List<Container> activeContainers() {
    return containers.values().stream().filter(c -> c.state().isActive()).toList();
  }

  /** Sets the policy's CPU classes (none by default). */
  public FakeNode setCpuClasses(Map<String, CpuSet> classes) {
    cpuClasses = classes;
    return this;
  }

  @Override
  public Map<String, CpuSet> cpuClasses() {
    return cpuClasses;
  }

  /** A ready pod {@code id} (name and uid derived from it) with a cgroup parent and annotations. */
  public static Pod pod(String id, String cgroupParent, Map<String, String> annotations) {
    return podBuilder(id).cgroupParent(cgroupParent).annotations(annotations).build();
  }

  /** A running container {@code name} with runtime id {@code id} in pod {@code podId}. */
  public static Container container(
      String id, String podId, String name, QosClass qos, Assignment a, Set<String> pending) {
    return containerBuilder(podId, name).id(id).qos(qos).assignment(a).pending(pending).build();
  }

  /**
   * A builder of ready pod {@code id}: uid {@code uid-<id>}, name {@code pod-<id>}, namespace
   * {@code default}, no annotations, cgroup parent {@code /kubepods/burstable/pod<id>}, QoS class
   * derived from the cgroup parent unless set.
   */
  public static PodBuilder podBuilder(String id) {
    return new PodBuilder(id);
  }

  /**
   * A builder of container {@code name} of pod {@code podId}: cache id {@code uid-<podId>:<name>},
   * no runtime id, namespace {@code default}, running, burstable, nothing requested, assigned or
   * pending, creation number 1.
   */
  public static ContainerBuilder containerBuilder(String podId, String name) {
    return new ContainerBuilder(podId, name);
  }

  /** Builds a {@link Pod}; every setter returns the builder. */
  public static final class PodBuilder {
    private final String id;
    private String uid;
    private String name;
    private Map<String, String> annotations = Map.of();
    private String cgroupParent;
    private @Nullable QosClass qos;

    private PodBuilder(String id) {
      this.id = id;
      this.uid = "uid-" + id;
      this.name = "pod-" + id;
      this.cgroupParent = "/kubepods/burstable/pod" + id;
    }

    /** Sets the pod UID. */
    public PodBuilder uid(String value) {
      uid = value;
      return this;
    }

    /** Sets the pod name. */
    public PodBuilder name(String value) {
      name = value;
      return this;
    }

    /** Sets the annotations. */
    public PodBuilder annotations(Map<String, String> value) {
      annotations = value;
      return this;
    }

    /** Sets the cgroup parent. */
    public PodBuilder cgroupParent(String value) {
      cgroupParent = value;
      return this;
    }

    /** Sets the QoS class instead of deriving it from the cgroup parent. */
    public PodBuilder qos(QosClass value) {
      qos = value;
      return this;
    }

    /** The pod. */
    public Pod build() {
      QosClass q = qos != null ? qos : QosClass.fromCgroupParent(cgroupParent);
      return new Pod(
          id,
          uid,
          name,
          "default",
          Map.of(),
          annotations,
          cgroupParent,
          q,
          PodResources.NONE,
          true);
    }
  }

  /** Builds a {@link Container}; every setter returns the builder. */
  public static final class ContainerBuilder {
    private final String podId;
    private final String name;
    private String podUid;
    private String id = "";
    private ContainerState state = ContainerState.RUNNING;
    private LinuxResources requested = LinuxResources.NONE;
    private QosClass qos = QosClass.BURSTABLE;
    private Assignment assignment = Assignment.NONE;
    private Set<String> pending = Set.of();
    private long seq = 1;

    private ContainerBuilder(String podId, String name) {
      this.podId = podId;
      this.name = name;
      this.podUid = "uid-" + podId;
    }

    /** Sets the pod UID, which the cache id starts with. */
    public ContainerBuilder podUid(String value) {
      podUid = value;
      return this;
    }

    /** Sets the runtime id. */
    public ContainerBuilder id(String value) {
      id = value;
      return this;
    }

    /** Sets the state. */
    public ContainerBuilder state(ContainerState value) {
      state = value;
      return this;
    }

    /** Sets the requested resources. */
    public ContainerBuilder requested(LinuxResources value) {
      requested = value;
      return this;
    }

    /** Sets the requested memory limit, nothing else requested. */
    public ContainerBuilder memoryLimit(long bytes) {
      return requested(new LinuxResources(0, 0, 0, bytes, "", "", Map.of()));
    }

    /** Sets the QoS class. */
    public ContainerBuilder qos(QosClass value) {
      qos = value;
      return this;
    }

    /** Sets the assignment. */
    public ContainerBuilder assignment(Assignment value) {
      assignment = value;
      return this;
    }

    /** Sets the controllers with pending changes. */
    public ContainerBuilder pending(Set<String> value) {
      pending = value;
      return this;
    }

    /** Sets the creation number. */
    public ContainerBuilder seq(long value) {
      seq = value;
      return this;
    }

    /** The container. */
    public Container build() {
      return Container.builder()
          .cacheId(Container.cacheId(podUid, name))
          .id(id)
          .podId(podId)
          .name(name)
          .namespace("default")
          .image("busybox")
          .state(state)
          .requested(requested)
          .resources(Resources.NONE)
          .qosClass(qos)
          .assignment(assignment)
          .pending(pending)
          .seq(seq)
          .build();
    }
  }
}
