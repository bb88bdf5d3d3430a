package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.PolicyEvent;
import io.criresmgr.policy.PolicyTimer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One decision in the making: the node, a working copy of the ledger, and the timers to ask for.
 * {@link #finish} turns the changed ledger into {@link Decisions}: the assignment of the container
 * the call is about first, then, in creation order, every other active container whose assignment
 * changed (its grant was touched, or the free sharable CPUs of its pool changed), and the new
 * policy data. A session on freshly restored state compares every container.
 */
final class Session {
  private static final Logger LOG = LoggerFactory.getLogger(Session.class);

  private final NodeState node;
  private final Ledger ledger;
  private final boolean fresh;
  private final CpuSet exclusiveBefore;
  private final List<PolicyTimer> timers = new ArrayList<>();
  private @Nullable String explained;
  private @Nullable Explanation why;

  /**
   * A session on {@code ledger} (a working copy).
   *
   * @param fresh whether the ledger was restored from policy data rather than taken from the
   *     previous decision, so the cache may not reflect it yet
   */
  Session(NodeState node, Ledger ledger, boolean fresh) {
    this.node = Objects.requireNonNull(node, "node");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.fresh = fresh;
    this.exclusiveBefore = ledger.exclusive();
  }

  NodeState node() {
    return node;
  }

  Ledger ledger() {
    return ledger;
  }

  boolean fresh() {
    return fresh;
  }

  /** {@code <pod>:<container>} of a cache id, or the id if the container is unknown. */
  String name(String cacheId) {
    Optional<Container> c = node.container(cacheId);
    Optional<Pod> pod = c.flatMap(x -> node.pod(x.podId()));
    return pod.isPresent() ? ContainerRequest.prettyName(pod.get(), c.get()) : cacheId;
  }

  /** Records why {@code cacheId} got its pool; the last container explained is kept. */
  void explain(String cacheId, Explanation value) {
    explained = cacheId;
    why = value;
  }

  /** Asks for {@code event} after {@code delay}. */
  void timer(Duration delay, PolicyEvent event) {
    timers.add(new PolicyTimer(delay, event));
  }

  /**
   * The decisions: assignments and the new policy data.
   *
   * @param subject the container the call is about (updated first, even if unchanged), or null
   * @param all compare every container's assignment, not only the possibly changed ones
   * @param cpuClasses the CPU classes of the ledger (see {@link CpuClassPlan})
   */
  Decisions finish(
      @Nullable String subject,
      boolean all,
      GrantAssignments assignments,
      SortedMap<String, CpuSet> cpuClasses) {
    boolean[] changed = changedPools();
    List<Container> candidates =
        all || fresh ? node.containers() : possiblyChanged(subject, changed);
    // Sized for the candidates (most of which a decision re-assigns) except in a full comparison.
    List<Decisions.Update> updates = new ArrayList<>(all || fresh ? 10 : candidates.size() + 1);
    if (subject != null) {
      Optional<Container> c = node.container(subject).filter(x -> x.state().isActive());
      Optional<Grant> g = ledger.grant(subject);
      if (c.isPresent() && g.isPresent()) {
        updates.add(new Decisions.Update(subject, assignments.of(g.get(), ledger)));
      }
    }
    // Containers of one pool mostly get equal assignments: each shape is computed once.
    GrantShapes<Shape, Assignment> byShape = new GrantShapes<>(Shape::same, Shape::of);
    for (Container c : candidates) {
      if (c.cacheId().equals(subject) || !c.state().isActive()) {
        continue;
      }
      Grant g = ledger.grantOrNull(c.cacheId());
      if (g != null
          && (all || fresh || ledger.touched().contains(g.cacheId()) || affected(g, changed))) {
        Assignment a = byShape.get(g);
        if (a == null) {
          a = assignments.of(g, ledger);
          byShape.put(g, a);
        }
        if (!a.equals(c.assignment())) {
          updates.add(new Decisions.Update(c.cacheId(), a));
        }
      }
    }
    if (LOG.isDebugEnabled()) {
      updates.forEach(
          u ->
              LOG.debug(
                  "{}: pinning to cpuset {}, memory {}, {} CPU shares",
                  name(u.cacheId()),
                  u.assignment().cpus(),
                  u.assignment().mems(),
                  u.assignment().cpuShares()));
    }
    // made at once: each copy by a Decisions.with* method would check the updates again
    Map<String, Explanation> explanations =
        why != null && subject != null && subject.equals(explained)
            ? Map.of(subject, why)
            : Map.of();
    return new Decisions(
        updates, Optional.of(ledger.policyData()), timers, Optional.of(cpuClasses), explanations);
  }

  /**
   * The containers whose grant was touched or uses the shared CPUs of a changed pool, in the order
   * of {@link NodeState#containers()} (creation order: by {@link Container#seq}, then by cache id,
   * as the cache keeps it): found through the ledger's indexes, so a decision costs what it
   * changed, not a look at every container. The subject and inactive containers may be among them.
   */
  private List<Container> possiblyChanged(@Nullable String subject, boolean[] changed) {
    Set<String> touched = ledger.touched();
    int size = touched.size();
    for (int p = 0; p < changed.length; p++) {
      if (changed[p]) {
        size += ledger.sharedUserCount(p);
      }
    }
    List<Container> out = new ArrayList<>(size);
    for (String id : touched) {
      addIfKnown(out, id);
    }
    for (int p = 0; p < changed.length; p++) {
      if (changed[p]) {
        ledger.forEachSharedUser(
            p,
            g -> {
              String id = g.cacheId();
              if (!touched.contains(id) && !id.equals(subject)) {
                addIfKnown(out, id);
              }
            });
      }
    }
    out.sort(Container.CREATION_ORDER);
    return out;
  }

  private void addIfKnown(List<Container> out, String cacheId) {
    Container c = node.containerOrNull(cacheId);
    if (c != null) {
      out.add(c);
    }
  }

  private static boolean affected(Grant g, boolean[] changedPools) {
    return g.usesSharedCpus() && changedPools[g.pool()];
  }

  /** Pools whose free sharable CPUs differ from those at the start of the session. */
  private boolean[] changedPools() {
    PoolTree tree = ledger.tree();
    boolean[] changed = new boolean[tree.size()];
    CpuSet now = ledger.exclusive();
    if (!now.equals(exclusiveBefore)) {
      CpuSet delta = now.difference(exclusiveBefore).union(exclusiveBefore.difference(now));
      boolean[] own = new boolean[tree.size()];
      for (Pool p : tree.pools()) {
        own[p.id()] = p.sharable().intersects(delta);
      }
      for (Pool p : tree.pools()) {
        // a shared grant of a pool without free sharable CPUs uses an ancestor's (see
        // GrantAssignments), so changes there count too
        boolean viaAncestor = false;
        for (int a : p.ancestors()) {
          viaAncestor |= own[a];
        }
        changed[p.id()] = own[p.id()] || (viaAncestor && ledger.freeSharable(p.id()).isEmpty());
      }
    }
    return changed;
  }

  /** What of a grant its assignment depends on (see {@link GrantAssignments#of}). */
  private record Shape(
      CpuKind kind,
      int pool,
      CpuSet exclusive,
      long fractionMilli,
      CpuSet memset,
      boolean hideHyperthreads,
      boolean memoryPreserve) {
    static Shape of(Grant g) {
      return new Shape(
          g.kind(),
          g.pool(),
          g.exclusive(),
          g.fractionMilli(),
          g.memset(),
          g.hideHyperthreads(),
          g.memoryPreserve());
    }

    /** Whether {@code a} and {@code b} have the same shape, without making either. */
    static boolean same(Grant a, Grant b) {
      return a.kind() == b.kind()
          && a.pool() == b.pool()
          && a.fractionMilli() == b.fractionMilli()
          && a.hideHyperthreads() == b.hideHyperthreads()
          && a.memoryPreserve() == b.memoryPreserve()
          && a.exclusive().equals(b.exclusive())
          && a.memset().equals(b.memset());
    }
  }
}
