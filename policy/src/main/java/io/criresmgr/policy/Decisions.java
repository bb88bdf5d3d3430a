package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CpuSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a policy decided: new assignments in the order they should be enforced, optionally its new
 * private state, and timers to be called back with. Applied to the cache all or nothing; timers are
 * started only once the decisions were applied.
 *
 * @param updates assignments, at most one per container, in enforcement order
 * @param policyData the policy's new private state; empty to keep the stored one
 * @param timers callbacks to schedule
 * @param cpuClasses the policy's CPU classes after these decisions (class name to CPUs), for the
 *     CPU frequency controller; empty to keep the known ones
 * @param explanations why containers were placed where they are (cache id to explanation), for
 *     operators; a policy explains at least the container a request was about
 */
public record Decisions(
    List<Update> updates,
    Optional<JsonNode> policyData,
    List<PolicyTimer> timers,
    Optional<SortedMap<String, CpuSet>> cpuClasses,
    Map<String, Explanation> explanations) {
  /** Nothing changes. */
  public static final Decisions NONE = new Decisions(List.of(), Optional.empty());

  /** Copies the lists; rejects two updates of one container. */
  public Decisions {
    updates = List.copyOf(updates);
    timers = List.copyOf(timers);
    Objects.requireNonNull(policyData, "policyData");
    cpuClasses = cpuClasses.map(m -> Collections.unmodifiableSortedMap(new TreeMap<>(m)));
    explanations = Map.copyOf(explanations);
    checkDistinct(updates);
  }

  /**
   * Rejects two updates of one container. A decision may re-assign hundreds of containers: the ids
   * go into an open-addressed table of their indexes (one int array), not a set of entries.
   */
  private static void checkDistinct(List<Update> updates) {
    int n = updates.size();
    if (n < 2) {
      return;
    }
    int[] slots = new int[Integer.highestOneBit(2 * n - 1) << 1]; // a power of two, at least 2n
    int mask = slots.length - 1;
    for (int i = 0; i < n; i++) {
      String id = updates.get(i).cacheId();
      int h = id.hashCode();
      for (int s = (h ^ (h >>> 16)) & mask; ; s = (s + 1) & mask) {
        int j = slots[s];
        if (j == 0) {
          slots[s] = i + 1;
          break;
        }
        if (updates.get(j - 1).cacheId().equals(id)) {
          throw new IllegalArgumentException("two decisions for container " + id);
        }
      }
    }
  }

  /** Assignments, policy data, timers and CPU classes; no explanations. */
  public Decisions(
      List<Update> updates,
      Optional<JsonNode> policyData,
      List<PolicyTimer> timers,
      Optional<SortedMap<String, CpuSet>> cpuClasses) {
    this(updates, policyData, timers, cpuClasses, Map.of());
  }

  /** Assignments, policy data and timers; CPU classes unchanged. */
  public Decisions(List<Update> updates, Optional<JsonNode> policyData, List<PolicyTimer> timers) {
    this(updates, policyData, timers, Optional.empty());
  }

  /** Assignments and policy data, no timers. */
  public Decisions(List<Update> updates, Optional<JsonNode> policyData) {
    this(updates, policyData, List.of());
  }

  /** Only these assignments. */
  public static Decisions of(List<Update> updates) {
    return new Decisions(updates, Optional.empty());
  }

  /** One assignment. */
  public static Decisions of(String cacheId, Assignment assignment) {
    return of(List.of(new Update(cacheId, assignment)));
  }

  /** A copy that also stores {@code data} as the policy's private state. */
  public Decisions withPolicyData(JsonNode data) {
    return new Decisions(updates, Optional.of(data), timers, cpuClasses, explanations);
  }

  /** A copy that also reports the policy's CPU classes (class name to CPUs). */
  public Decisions withCpuClasses(SortedMap<String, CpuSet> classes) {
    return new Decisions(updates, policyData, timers, Optional.of(classes), explanations);
  }

  /** A copy that also asks for {@code event} to be delivered after {@code delay}. */
  public Decisions withTimer(java.time.Duration delay, PolicyEvent event) {
    List<PolicyTimer> more = new java.util.ArrayList<>(timers);
    more.add(new PolicyTimer(delay, event));
    return new Decisions(updates, policyData, more, cpuClasses, explanations);
  }

  /** A copy that also explains {@code cacheId}'s placement (replacing an earlier explanation). */
  public Decisions withExplanation(String cacheId, Explanation why) {
    Map<String, Explanation> more = new HashMap<>(explanations);
    more.put(cacheId, why);
    return new Decisions(updates, policyData, timers, cpuClasses, more);
  }

  /**
   * One container's new assignment.
   *
   * @param cacheId the container's cache id
   * @param assignment its new assignment
   */
  public record Update(String cacheId, Assignment assignment) {
    /** Checks for nulls. */
    public Update {
      Objects.requireNonNull(cacheId, "cacheId");
      Objects.requireNonNull(assignment, "assignment");
    }
  }
}
