package io.criresmgr.cache;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The node cache: pods, containers and policy data. Not thread-safe by design: the pipeline's steps
 * write it one at a time, and readers on other threads get a {@link #snapshot()} taken between two
 * steps.
 */
public final class NodeCache implements NodeState {
  private final Map<String, Pod> pods = new TreeMap<>();
  private final Map<String, Container> containers = new HashMap<>();
  private final Map<String, String> idToCacheId = new HashMap<>();
  private final Map<String, JsonNode> policyData = new TreeMap<>();
  private String activePolicy = "";
  private @Nullable String agentConfig;
  private @Nullable StoredAdjustments adjustments;

  /**
   * Every container in {@link #containers()} order, kept sorted as containers come and go: a new
   * container (the largest seq so far) is appended, a replaced one with the same seq keeps its
   * place, so no change sorts the whole list.
   */
  private final ArrayList<Container> order = new ArrayList<>();

  /** An immutable copy of {@link #order}, kept until the next container change. */
  private @Nullable List<Container> sortedContainers;

  /** An immutable copy of the pods, kept until the next pod change. */
  private @Nullable List<Pod> podList;

  private long nextSeq = 1;
  private long changes;

  /** An empty cache. */
  public NodeCache() {}

  /** A cache holding what {@code snapshot} recorded. */
  public static NodeCache restore(CacheSnapshot snapshot) {
    NodeCache cache = new NodeCache();
    snapshot.pods().values().forEach(cache::putPod);
    snapshot.containers().values().forEach(cache::putContainer);
    cache.policyData.putAll(snapshot.policyData());
    cache.activePolicy = snapshot.activePolicy();
    cache.agentConfig = snapshot.agentConfig().orElse(null);
    cache.adjustments = snapshot.adjustments().orElse(null);
    cache.nextSeq = Math.max(cache.nextSeq, snapshot.nextSeq());
    cache.changes = 0;
    return cache;
  }

  /** An immutable copy of everything, for persistence and for readers on other threads. */
  public CacheSnapshot snapshot() {
    return new CacheSnapshot(
        CacheSnapshot.VERSION,
        pods,
        containers,
        nextSeq,
        activePolicy,
        policyData,
        Optional.ofNullable(agentConfig),
        Optional.ofNullable(adjustments));
  }

  /** Counts mutations; persistence saves when it moved. */
  public long changes() {
    return changes;
  }

  /** A new creation sequence number. */
  public long nextSeq() {
    changes++;
    return nextSeq++;
  }

  /** {@inheritDoc} Kept until the next pod change, as {@link #containers()} is. */
  @Override
  public List<Pod> pods() {
    List<Pod> list = podList;
    if (list == null) {
      list = List.copyOf(pods.values());
      podList = list;
    }
    return list;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The immutable list is kept until the next container change: policies ask for it several
   * times per decision. After a change it is one array copy of the order the cache keeps sorted
   * (sorting 2,000 containers per decision was a tenth of a decision's time).
   */
  @Override
  public List<Container> containers() {
    List<Container> sorted = sortedContainers;
    if (sorted == null) {
      sorted = Collections.unmodifiableList(Arrays.asList(order.toArray(new Container[0])));
      sortedContainers = sorted;
    }
    return sorted;
  }

  /** The index of {@code c} (by seq and cache id) in {@link #order}. */
  private int indexOf(Container c) {
    int i = Collections.binarySearch(order, c, Container.CREATION_ORDER);
    if (i < 0) {
      throw new IllegalStateException("container " + c.cacheId() + " missing from the order");
    }
    return i;
  }

  /** Inserts {@code c} in its place in {@link #order}: at the end for a new container. */
  private void insertInOrder(Container c) {
    int n = order.size();
    if (n == 0 || Container.CREATION_ORDER.compare(order.get(n - 1), c) < 0) {
      order.add(c);
      return;
    }
    int i = Collections.binarySearch(order, c, Container.CREATION_ORDER);
    order.add(i < 0 ? -i - 1 : i, c);
  }

  @Override
  public Optional<Pod> pod(String podId) {
    return Optional.ofNullable(pods.get(podId));
  }

  @Override
  public @Nullable Pod podOrNull(String podId) {
    return pods.get(podId);
  }

  @Override
  public Optional<Container> container(String cacheId) {
    return Optional.ofNullable(containers.get(cacheId));
  }

  /**
   * The container cached as {@code cacheId}, or null: {@link #container} without an {@code
   * Optional}, for the loops over the hundreds of containers one decision may re-assign.
   */
  @Override
  public @Nullable Container containerOrNull(String cacheId) {
    return containers.get(cacheId);
  }

  @Override
  public Optional<Container> containerById(String id) {
    String cacheId = idToCacheId.get(id);
    return cacheId == null ? Optional.empty() : container(cacheId);
  }

  /** Containers of one pod, in creation order. */
  public List<Container> containersOf(String podId) {
    return containers().stream().filter(c -> c.podId().equals(podId)).toList();
  }

  @Override
  public Optional<JsonNode> policyData(String policyName) {
    return Optional.ofNullable(policyData.get(policyName));
  }

  /** Inserts or replaces a pod. */
  public void putPod(Pod pod) {
    pods.put(pod.id(), pod);
    podList = null;
    changes++;
  }

  /** Removes a pod (its containers stay until removed). */
  public void removePod(String podId) {
    if (pods.remove(podId) != null) {
      podList = null;
      changes++;
    }
  }

  /** Inserts or replaces a container and indexes its runtime id. */
  public void putContainer(Container container) {
    Container old = containers.put(container.cacheId(), container);
    sortedContainers = null;
    if (old != null && old.seq() == container.seq()) {
      order.set(indexOf(old), container); // replaced in its place
    } else {
      if (old != null) {
        order.remove(indexOf(old)); // re-created: a new place in the order
      }
      insertInOrder(container);
    }
    if (old != null && !old.id().isEmpty() && !old.id().equals(container.id())) {
      idToCacheId.remove(old.id());
    }
    if (!container.id().isEmpty()) {
      idToCacheId.put(container.id(), container.cacheId());
    }
    nextSeq = Math.max(nextSeq, container.seq() + 1);
    changes++;
  }

  /** Removes a container. */
  public void removeContainer(String cacheId) {
    Container old = containers.remove(cacheId);
    if (old != null) {
      sortedContainers = null;
      order.remove(indexOf(old));
      if (!old.id().isEmpty()) {
        idToCacheId.remove(old.id(), cacheId);
      }
      changes++;
    }
  }

  /**
   * Applies assignments all or nothing: every id must name a cached container, else nothing
   * changes. A container whose assignment changes gets {@code markPending} added to its pending
   * controllers.
   *
   * @throws IllegalArgumentException naming the first unknown container
   */
  public void applyAssignments(Map<String, Assignment> assignments, Set<String> markPending) {
    for (String cacheId : assignments.keySet()) {
      if (!containers.containsKey(cacheId)) {
        throw new IllegalArgumentException("assignment for unknown container " + cacheId);
      }
    }
    assignments.forEach(
        (cacheId, assignment) -> {
          Container c = Objects.requireNonNull(containers.get(cacheId));
          if (!c.assignment().equals(assignment)) {
            putContainer(c.withAssignment(assignment, markPending));
          }
        });
  }

  /** Replaces (or, with null, removes) a policy's private state. */
  public void setPolicyData(String policyName, @Nullable JsonNode data) {
    if (data == null) {
      policyData.remove(policyName);
    } else {
      policyData.put(policyName, data);
    }
    changes++;
  }

  /** Forgets every policy's private state and the recorded policy name. */
  public void resetPolicy() {
    policyData.clear();
    activePolicy = "";
    changes++;
  }

  /** The policy that made the recorded assignments; empty if none. */
  public String activePolicy() {
    return activePolicy;
  }

  /** Records the policy making assignments. */
  public void setActivePolicy(String name) {
    activePolicy = Objects.requireNonNull(name, "name");
    changes++;
  }

  /** The last configuration accepted from the node agent, as YAML. */
  public Optional<String> agentConfig() {
    return Optional.ofNullable(agentConfig);
  }

  /** Stores (or, with null, forgets) the agent's configuration. */
  public void setAgentConfig(@Nullable String yaml) {
    agentConfig = yaml;
    changes++;
  }

  /** The adjustments last accepted from the node agent. */
  public Optional<StoredAdjustments> adjustments() {
    return Optional.ofNullable(adjustments);
  }

  /** Stores (or, with null, forgets) the agent's adjustments. */
  public void setAdjustments(@Nullable StoredAdjustments value) {
    adjustments = value;
    changes++;
  }
}
