package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cold starts (docs/policy/topology-aware.md): a container allowed both DRAM and PMEM that asks for
 * a cold start is pinned to PMEM only; when it starts, a policy timer of the cold start period is
 * set, and when it fires the container's memory nodes widen to every type it may use. The deadline
 * is kept in the grant, so a restarted daemon (whose timers are gone) finishes an expired cold
 * start when it restores the grant, and sets a new timer for one still running.
 */
final class ColdStarts {
  /** The type of the timer event that ends a cold start. */
  static final String DONE = "cold-start-done";

  /** The event data key holding the deadline the timer was set for. */
  static final String DEADLINE = "deadline";

  private static final Logger LOG = LoggerFactory.getLogger(ColdStarts.class);

  private ColdStarts() {}

  /** Starts the cold start of a container that started; true if it has one pending. */
  static boolean started(Session s, String cacheId, Clock clock) {
    Optional<Grant> g = s.ledger().grant(cacheId);
    if (g.isEmpty() || !g.get().inColdStart() || g.get().coldStartDeadline() != 0) {
      return false;
    }
    Grant grant = g.get();
    long deadline = clock.millis() + grant.coldStart().toMillis();
    s.ledger().add(grant.withColdStart(grant.memset(), grant.coldStart(), deadline));
    LOG.info("coldstart: triggering coldstart for {}", s.name(cacheId));
    s.timer(grant.coldStart(), event(cacheId, deadline));
    return true;
  }

  /** Ends the cold start the timer {@code e} was set for; true if it was still running. */
  static boolean done(Session s, PolicyEvent e) {
    Optional<Grant> g = s.ledger().grant(e.cacheId());
    String deadline = e.data().getOrDefault(DEADLINE, "");
    if (g.isEmpty()
        || !g.get().inColdStart()
        || !String.valueOf(g.get().coldStartDeadline()).equals(deadline)) {
      return false; // gone, finished, or re-created with a cold start of its own
    }
    s.ledger().add(finish(g.get(), s.ledger().tree(), s::name));
    return true;
  }

  /**
   * Carries the cold start state of {@code old} over to the container's new grant (an update or a
   * rebalance re-allocated it): a running cold start keeps its deadline, so its timer still ends
   * it; a started container whose cold start ended (or that had none) does not start another one,
   * as no start event will end it.
   */
  static void carryOver(Session s, Grant old, boolean started) {
    carryOver(s, old.cacheId(), old.inColdStart(), old.coldStartDeadline(), started);
  }

  /** {@link #carryOver(Session, Grant, boolean)} for a grant known by its cold start fields. */
  static void carryOver(
      Session s, String cacheId, boolean wasCold, long oldDeadline, boolean started) {
    Optional<Grant> g = s.ledger().grant(cacheId);
    if (g.isEmpty() || !g.get().inColdStart()) {
      return;
    }
    Grant grant = g.get();
    if (wasCold && oldDeadline != 0) {
      s.ledger().add(grant.withColdStart(grant.memset(), grant.coldStart(), oldDeadline));
    } else if (!wasCold && started) {
      s.ledger().add(finish(grant, s.ledger().tree(), s::name));
    }
  }

  /** Finishes expired cold starts and sets timers for running ones (after a restart). */
  static void resume(Session s, Clock clock) {
    long now = clock.millis();
    for (Grant g : List.copyOf(s.ledger().grants())) {
      if (g.inColdStart() && g.coldStartDeadline() != 0) {
        if (g.coldStartDeadline() <= now) {
          s.ledger().add(finish(g, s.ledger().tree(), s::name));
        } else {
          s.timer(
              Duration.ofMillis(g.coldStartDeadline() - now),
              event(g.cacheId(), g.coldStartDeadline()));
        }
      }
    }
  }

  private static Grant finish(Grant g, PoolTree tree, MemoryGuarantee.Names names) {
    Pool pool = tree.pool(g.memoryPool());
    CpuSet nodes = MemorySupply.memset(pool, g.memoryTypes());
    LOG.info(
        "finishing coldstart period for {}: pinning to memory {}", names.of(g.cacheId()), nodes);
    return g.withColdStart(nodes, Duration.ZERO, 0);
  }

  private static PolicyEvent event(String cacheId, long deadline) {
    return new PolicyEvent(DONE, cacheId, Map.of(DEADLINE, String.valueOf(deadline)));
  }
}
