package io.criresmgr.proxy.core;

import io.criresmgr.cache.Adjustment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a new set of adjustments in force, in one pipeline step and all or nothing: every active
 * container gets the one adjustment that applies to it (a conflict or a resource override of a
 * BestEffort container rejects the whole set); the policy re-decides each container whose adjusted
 * resources changed (a refusal rolls every container back); controllers then enforce the changed
 * containers again, so class overrides take effect.
 */
public final class AdjustmentStep {
  private static final Logger LOG = LoggerFactory.getLogger(AdjustmentStep.class);

  /** The reply key of errors that concern no single container. */
  public static final String CACHE_KEY = "cache";

  private AdjustmentStep() {}

  /**
   * Applies {@code set} (stored as {@code stored}; null forgets the stored set); returns the errors
   * by container id (empty: in force).
   */
  public static Map<String, String> apply(
      Section s, AdjustmentSet set, @Nullable StoredAdjustments stored) {
    Map<String, String> errors = new TreeMap<>();
    Map<String, Adjustment> next = resolve(s, set, errors);
    if (!errors.isEmpty()) {
      return errors;
    }
    List<Container> before = new ArrayList<>();
    for (String cacheId : changed(s, next)) {
      // Read now, not before the loop: an earlier container's update may have moved this one.
      Container c = s.cache().container(cacheId).orElseThrow();
      before.add(c);
      Container adjusted =
          c.withAdjustment(
              Objects.requireNonNull(next.get(cacheId), "changed lists resolved ones"));
      s.put(adjusted);
      if (!adjusted.adjustedResources().equals(c.adjustedResources())) {
        try {
          s.decide(p -> p.update(adjusted, s.cache()), Set.of(cacheId));
        } catch (RuntimeException e) {
          // A PolicyException, or any other failure: nothing may stay half done.
          rollBack(s, before);
          return Map.of(key(c), refusal(s, adjusted, e));
        }
      }
    }
    s.setAdjustments(set);
    if (!s.cache().adjustments().equals(Optional.ofNullable(stored))) {
      s.cache().setAdjustments(stored);
    }
    before.forEach(c -> enforce(s, c.cacheId()));
    return Map.of();
  }

  /** The adjustment every active container gets; conflicts go to {@code errors}. */
  private static Map<String, Adjustment> resolve(
      Section s, AdjustmentSet set, Map<String, String> errors) {
    Map<String, Adjustment> next = new LinkedHashMap<>();
    for (Container c : s.activeContainers()) {
      Pod pod = s.cache().pod(c.podId()).orElse(null);
      if (pod == null) {
        continue;
      }
      try {
        next.put(c.cacheId(), set.resolve(c, pod));
      } catch (AdjustmentException e) {
        errors.put(key(c), e.getMessage());
      }
    }
    return next;
  }

  /** The cache ids of the containers whose adjustment changes, oldest first. */
  private static List<String> changed(Section s, Map<String, Adjustment> next) {
    return s.activeContainers().stream()
        .filter(c -> next.containsKey(c.cacheId()))
        .filter(c -> !c.adjustment().equals(next.get(c.cacheId())))
        .sorted(Comparator.comparingLong(Container::seq))
        .map(Container::cacheId)
        .toList();
  }

  /** Restores the containers' earlier adjustments, newest first, and lets the policy re-decide. */
  private static void rollBack(Section s, List<Container> before) {
    for (int i = before.size() - 1; i >= 0; i--) {
      Container old = before.get(i);
      Container now = s.cache().container(old.cacheId()).orElse(null);
      if (now == null) {
        continue;
      }
      Container restored = now.withAdjustment(old.adjustment());
      s.put(restored);
      if (!restored.adjustedResources().equals(now.adjustedResources())) {
        try {
          s.decide(p -> p.update(restored, s.cache()), Set.of());
        } catch (RuntimeException e) {
          LOG.warn("rolling back the adjustment of {}: {}", old.cacheId(), e.getMessage());
        }
      }
    }
  }

  /** Marks every running controller pending for the container and runs its post-update hooks. */
  private static void enforce(Section s, String cacheId) {
    Container c = s.cache().container(cacheId).orElse(null);
    if (c == null || (c.state() != ContainerState.CREATED && c.state() != ContainerState.RUNNING)) {
      return;
    }
    Container marked = c.withAssignment(c.assignment(), s.controllers().running());
    s.put(marked);
    try {
      s.postUpdate(marked);
    } catch (RuntimeException e) { // the set is in force; a controller catches up later
      LOG.warn("enforcing the adjustment of {}: {} (stays pending)", cacheId, e.getMessage());
    }
  }

  private static String refusal(Section s, Container c, Exception e) {
    return "policy "
        + s.policy().name()
        + " cannot apply adjustment "
        + c.adjustment().name()
        + " to "
        + c.namespace()
        + "/"
        + c.cacheId()
        + ": "
        + e.getMessage();
  }

  /** The reply key of a container: its runtime id, or its cache id before it has one. */
  static String key(Container c) {
    return c.id().isEmpty() ? c.cacheId() : c.id();
  }
}
