package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * An in-memory node for policy tests: a real {@link NodeCache} filled with pods and containers
 * built from records, and the pipeline's way of applying {@link Decisions}. Pod {@code p} has
 * sandbox id {@code sandbox-p} and UID {@code uid-p}, so container {@code c} of it has cache id
 * {@code uid-p:c}.
 */
public final class FakeNode {
  private final NodeCache cache;
  private final String policyName;

  /** An empty node whose policy stores its data under {@code policyName}. */
  public FakeNode(String policyName) {
    this(new NodeCache(), policyName);
  }

  private FakeNode(NodeCache cache, String policyName) {
    this.cache = cache;
    this.policyName = policyName;
  }

  /** A node restored from {@code cache}'s snapshot: equal content, independent of it. */
  public FakeNode copy() {
    return copy(UnaryOperator.identity());
  }

  /** Like {@link #copy()}, with every policy's stored data passed through {@code policyData}. */
  public FakeNode copy(UnaryOperator<JsonNode> policyData) {
    CacheSnapshot s = cache.snapshot();
    Map<String, JsonNode> data = new LinkedHashMap<>();
    s.policyData().forEach((name, value) -> data.put(name, policyData.apply(value)));
    CacheSnapshot changed =
        new CacheSnapshot(
            s.version(),
            s.pods(),
            s.containers(),
            s.nextSeq(),
            s.activePolicy(),
            data,
            s.agentConfig());
    return new FakeNode(NodeCache.restore(changed), policyName);
  }

  /** The cache, which is also the {@link io.criresmgr.cache.NodeState} policies get. */
  public NodeCache cache() {
    return cache;
  }

  /** Adds a ready pod named {@code name} in namespace {@code default}. */
  public Pod addPod(String name) {
    Pod pod =
        new Pod(
            "sandbox-" + name,
            "uid-" + name,
            name,
            "default",
            Map.of(),
            Map.of(),
            "/kubepods/pod" + name,
            QosClass.GUARANTEED,
            PodResources.NONE,
            true);
    cache.putPod(pod);
    return pod;
  }

  /**
   * Adds (or re-creates) container {@code name} of pod {@code podName} as the pipeline does before
   * it asks the policy: state {@code CREATING}, no assignment, the next creation number.
   */
  public Container create(String podName, String name, Resources resources) {
    if (cache.pod("sandbox-" + podName).isEmpty()) {
      addPod(podName);
    }
    Container c =
        Container.builder()
            .cacheId(Container.cacheId("uid-" + podName, name))
            .podId("sandbox-" + podName)
            .name(name)
            .namespace("default")
            .image("busybox")
            .state(ContainerState.CREATING)
            .resources(resources)
            .qosClass(qos(resources))
            .seq(cache.nextSeq())
            .build();
    cache.putContainer(c);
    return c;
  }

  /** The QoS class Kubernetes would give a pod with only this container's CPU and memory. */
  public static QosClass qos(Resources r) {
    if (r.cpuLimitMilli() > 0
        && r.cpuRequestMilli() == r.cpuLimitMilli()
        && r.memoryRequestBytes() == r.memoryLimitBytes()) {
      return QosClass.GUARANTEED;
    }
    boolean any =
        r.cpuRequestMilli() + r.cpuLimitMilli() + r.memoryRequestBytes() + r.memoryLimitBytes() > 0;
    return any ? QosClass.BURSTABLE : QosClass.BEST_EFFORT;
  }

  /** CPU request and limit in milli-CPUs, no memory. */
  public static Resources cpu(long requestMilli, long limitMilli) {
    return new Resources(requestMilli, limitMilli, 0, 0);
  }

  /** The container with this cache id; it must exist. */
  public Container container(String cacheId) {
    return cache.container(cacheId).orElseThrow(() -> new AssertionError("no " + cacheId));
  }

  /** Moves a container to {@code state} (and gives it a runtime id once created). */
  public Container setState(String cacheId, ContainerState state) {
    Container c = container(cacheId).withState(state);
    if (c.id().isEmpty() && state != ContainerState.CREATING) {
      c = c.withId("ctr-" + cacheId);
    }
    cache.putContainer(c);
    return c;
  }

  /** Replaces a container's requests and limits, as a kubelet update would. */
  public Container setResources(String cacheId, Resources resources) {
    Container c = container(cacheId).withRequested(LinuxResources.NONE, resources);
    cache.putContainer(c);
    return c;
  }

  /** Puts a container record back as it was (the pipeline's rollback). */
  public void restore(Container c) {
    cache.putContainer(c);
  }

  /**
   * Applies decisions as the pipeline does: all assignments or none, then the policy data.
   *
   * @throws IllegalArgumentException if an update names a container that is not in the cache
   */
  public void apply(Decisions decisions) {
    Map<String, Assignment> assignments = new LinkedHashMap<>();
    decisions.updates().forEach(u -> assignments.put(u.cacheId(), u.assignment()));
    cache.applyAssignments(assignments, Set.of());
    decisions.policyData().ifPresent(data -> cache.setPolicyData(policyName, data));
  }
}
