package io.criresmgr.proxy.core;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.Explanation;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Why each container is where it is, and why the last pods were refused (docs/ui.md, "Why here"):
 * the policy's {@link Explanation} of a container's placement, kept while the container is in the
 * cache, and the last {@link #MAX_REFUSALS} refusals, one per namespace, pod and container name (a
 * later refusal of the same container replaces the earlier one; placing it drops it). Not
 * persisted: a restarted daemon explains the containers it places from then on. Confined to the
 * pipeline thread.
 */
public final class Explanations {
  /** The most refusals kept. */
  public static final int MAX_REFUSALS = 50;

  private final Map<String, Explanation> placed = new HashMap<>();
  private final LinkedHashMap<String, Refusal> refusals =
      new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Refusal> eldest) {
          return size() > MAX_REFUSALS;
        }
      };
  private long changes;

  /** Why {@code cacheId} is where it is, if its policy said. */
  public Optional<Explanation> of(String cacheId) {
    return Optional.ofNullable(placed.get(cacheId));
  }

  /** Every container's explanation, by cache id (a copy). */
  public Map<String, Explanation> byContainer() {
    return Map.copyOf(placed);
  }

  /** The refusals kept, oldest first. */
  public List<Refusal> refusals() {
    return List.copyOf(refusals.values());
  }

  /** A number that moves when a refusal is recorded or dropped. */
  long changes() {
    return changes;
  }

  /** Records why {@code c} of {@code pod} is placed; drops an earlier refusal of it. */
  void placed(Container c, Pod pod, Explanation why) {
    placed.put(c.cacheId(), why);
    if (!refusals.isEmpty() && refusals.remove(key(pod, c.name())) != null) {
      changes++;
    }
  }

  /** Forgets a container that left the cache. */
  void removed(String cacheId) {
    placed.remove(cacheId);
  }

  /** Records that {@code c} of {@code pod} was refused with {@code message}, for {@code why}. */
  void refused(Container c, Pod pod, String message, Explanation why) {
    String key = key(pod, c.name());
    refusals.remove(key); // re-inserted last
    refusals.put(
        key,
        new Refusal(pod.namespace(), pod.name(), c.name(), Instant.now().toString(), message, why));
    changes++;
  }

  private static String key(Pod pod, String container) {
    return pod.namespace() + "/" + pod.name() + "/" + container;
  }

  /**
   * A container the policy refused.
   *
   * @param namespace the pod's namespace
   * @param pod the pod's name
   * @param container the container's name
   * @param at when (ISO-8601, UTC)
   * @param message the error kubelet got
   * @param why the policy's explanation: the closest candidate and what it lacked
   */
  public record Refusal(
      String namespace, String pod, String container, String at, String message, Explanation why) {
    /** Checks for nulls. */
    public Refusal {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(container, "container");
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(why, "why");
    }
  }
}
