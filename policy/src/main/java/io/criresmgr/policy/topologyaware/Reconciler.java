package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores the grants of stored policy data into a session, for a policy that did not make them
 * (after a restart, or an options change that rebuilt the pool tree): a grant of a container that
 * is gone or no longer active is dropped; one that still fits the tree is reinstated verbatim;
 * others are reallocated with their old pool as hint, after the verbatim ones (cri-resmgr's {@code
 * reinstateGrants}, then {@code reallocateResources}).
 */
final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

  /** Allocates afresh for a container whose stored grant does not fit. */
  @FunctionalInterface
  interface Reallocation {
    /** Allocates {@code c} into the session, preferring pool {@code hint}. */
    void allocate(Session s, Container c, String hint);
  }

  private Reconciler() {}

  /** Restores {@code data} (the policy data, may be missing) into the empty ledger of {@code s}. */
  static void restore(JsonNode data, Session s, Reallocation realloc) {
    restore(data, s, realloc, false);
  }

  /**
   * As {@link #restore(JsonNode, Session, Reallocation)}; with {@code strict} (new options of the
   * running policy), a container that fits nowhere any more refuses the options instead of keeping
   * its CPUs outside the policy's books.
   *
   * @throws PolicyException with {@code strict}, naming the first container that does not fit
   */
  static void restore(JsonNode data, Session s, Reallocation realloc, boolean strict) {
    List<Map.Entry<String, StoredGrant>> misfits = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : data.path(GrantJson.ALLOCATIONS).properties()) {
      String id = e.getKey();
      Optional<Container> c = s.node().container(id).filter(x -> x.state().isActive());
      if (c.isEmpty()) {
        LOG.info("dropping the stored grant of {}: the container is no longer active", id);
        continue;
      }
      StoredGrant stored;
      try {
        stored = GrantJson.read(id, e.getValue());
      } catch (IllegalArgumentException ex) {
        LOG.warn("dropping the stored grant of {}: {}", s.name(id), ex.getMessage());
        continue;
      }
      Optional<String> why = reinstate(s, stored);
      if (why.isPresent()) {
        LOG.info("cannot reinstate the grant of {} verbatim: {}", s.name(id), why.get());
        misfits.add(Map.entry(id, stored));
      }
    }
    for (Map.Entry<String, StoredGrant> m : misfits) {
      Container c = s.node().container(m.getKey()).orElseThrow();
      try {
        StoredGrant old = m.getValue();
        realloc.allocate(s, c, old.pool());
        ColdStarts.carryOver(
            s,
            c.cacheId(),
            !old.coldStart().isZero(),
            old.coldStartDeadline(),
            c.state() == ContainerState.RUNNING);
        LOG.info("reallocated {} (it was in {})", s.name(c.cacheId()), m.getValue().pool());
      } catch (PolicyException | IllegalArgumentException ex) {
        if (strict) {
          throw new PolicyException(
              "container " + s.name(c.cacheId()) + " would not fit: " + ex.getMessage(), ex);
        }
        LOG.warn(
            "dropping the grant of {}, it keeps its current CPUs and memory: {}",
            s.name(c.cacheId()),
            ex.getMessage());
      }
    }
  }

  private static Optional<String> reinstate(Session s, StoredGrant stored) {
    Ledger ledger = s.ledger();
    Optional<Grant> resolved = stored.resolve(ledger.tree());
    if (resolved.isEmpty()) {
      return Optional.of("pool " + stored.pool() + " or " + stored.memoryPool() + " is gone");
    }
    Grant g = resolved.get();
    Optional<String> why = ledger.whyNot(g);
    if (why.isEmpty()) {
      ledger.add(g);
    }
    return why;
  }
}
