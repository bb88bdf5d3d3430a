package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns balloons into container assignments. Every container of a balloon gets, if {@code PinCPU},
 * the balloon's CPUs plus its shared idle CPUs ({@link IdleCpuSharing}), thinned to one hyperthread
 * per physical core if its type's {@code HideHyperthreads} or its {@code hide-hyperthreads}
 * annotation says so, and CPU shares from its own request; if the type's {@code PinMemory}, the
 * memory nodes of those CPUs (before thinning) of its type's {@code MemoryTypes} or its {@code
 * memory-type} annotation ({@link MemoryNodes}, {@link PinningOverrides}), unless its {@code
 * memory.preserve} annotation keeps its memory nodes.
 */
final class BalloonAssignments {
  /** The cgroup v1 minimum of CPU shares. */
  static final long MIN_SHARES = 2;

  /** The cgroup v1 maximum of CPU shares. */
  static final long MAX_SHARES = 262144;

  private static final Logger LOG = LoggerFactory.getLogger(BalloonAssignments.class);

  private final SystemTopology topology;
  private final BalloonsOptions options;
  private final Map<String, BalloonType> types;
  private final IdleCpuSharing sharing;
  private final MemoryNodes memory;
  private final PinningMemo pinning = new PinningMemo();
  private final KnownAssignments known = new KnownAssignments();

  BalloonAssignments(
      SystemTopology topology, BalloonsOptions options, Map<String, BalloonType> types) {
    this.topology = Objects.requireNonNull(topology, "topology");
    this.options = Objects.requireNonNull(options, "options");
    this.types = Map.copyOf(types);
    this.sharing = new IdleCpuSharing(topology);
    this.memory = new MemoryNodes(topology);
  }

  /**
   * The decisions for {@code set}: the assignment of {@code subject} first (if it is in a balloon),
   * then every other active container whose assignment changed, in creation order (the caller makes
   * the {@link Decisions} with them and the policy data). A container whose inputs did not change
   * since the previous call keeps that call's result ({@link KnownAssignments}); the others, the
   * containers of changed balloons above all, are worked out again.
   *
   * @throws PolicyException if an annotation of {@code subject} is malformed (those of other
   *     containers are ignored then, with a warning, so that one cannot block every decision)
   */
  List<Decisions.Update> decide(BalloonSet set, NodeState node, @Nullable String subject) {
    try {
      return new Call(set, node).decide(subject);
    } catch (RuntimeException e) {
      known.reset(); // a call cut short leaves entries of mixed calls
      throw e;
    }
  }

  /**
   * One call: the balloons with their containers' CPUs, and the assignments of equal requests of a
   * balloon, made once per call.
   */
  private final class Call {
    private final List<Balloon> balloons;
    private final CpuSet[] cpus;
    private final NodeState node;
    private final List<Container> containers;
    private final @Nullable Map<Long, Assignment>[] byMilli;

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of maps
    Call(BalloonSet set, NodeState node) {
      this.balloons = set.balloons();
      this.node = node;
      this.containers = node.containers();
      Map<String, CpuSet> shared = sharing.byBalloon(set);
      this.cpus = new CpuSet[balloons.size()];
      for (int p = 0; p < cpus.length; p++) {
        Balloon b = balloons.get(p);
        CpuSet idle = shared.get(b.name());
        cpus[p] = idle == null || idle.isEmpty() ? b.cpus() : b.cpus().union(idle);
      }
      this.byMilli = new Map[balloons.size()];
      known.begin(balloons, cpus, node.pods(), containers.size());
    }

    @SuppressWarnings("ReferenceEquality") // identity is the point: an unchanged container is one
    List<Decisions.Update> decide(@Nullable String subject) {
      List<Decisions.Update> updates = new ArrayList<>();
      if (subject != null) {
        Assignment a = subject(subject, node.containerOrNull(subject));
        if (a != null) {
          updates.add(new Decisions.Update(subject, a));
        }
      }
      long call = known.call();
      for (Container c : containers) {
        if (c.cacheId().equals(subject) || !c.state().isActive()) {
          continue;
        }
        KnownAssignments.Entry e = known.entry(c.cacheId());
        if (locate(e, c.cacheId(), call) && e.container == c && !known.podChanged(e)) {
          e.seen = call; // nothing it depends on changed (the pod id: part of the container)
        } else {
          work(e, c, call);
        }
        Assignment a = e.wanted;
        if (e.update && a != null) {
          updates.add(new Decisions.Update(c.cacheId(), a));
        }
      }
      return updates;
    }

    /** The assignment of the subject {@code cacheId} ({@code c}, null if unknown), worked out. */
    private @Nullable Assignment subject(String cacheId, @Nullable Container c) {
      for (int p = balloons.size() - 1; p >= 0; p--) {
        Long milli = balloons.get(p).containers().get(cacheId);
        if (milli != null) {
          return wanted(p, milli, overrides(node, c, true));
        }
      }
      return null;
    }

    /**
     * Sets {@code e}'s balloon position and request to those of this call: the last balloon holding
     * {@code cacheId}. Returns whether that is the balloon of the previous call, unchanged. An
     * unchanged balloon held the same containers in the previous call, so none after that call's
     * holder holds it now, and none at all if that call found it in none; only a container new to
     * this memory is looked for in every unchanged balloon.
     */
    private boolean locate(KnownAssignments.Entry e, String cacheId, long call) {
      boolean valid = e.seen == call - 1;
      int floor = e.changedIn == call ? e.changedPosition : -1; // a changed balloon holding it
      int at = -1;
      long milli = 0;
      boolean kept = valid && (e.position < 0 || known.unchanged(e.position));
      if (kept) {
        at = e.position;
        milli = e.milli;
      } else {
        int top = valid ? Math.min(e.position, balloons.size()) : balloons.size();
        for (int p = top - 1; p > floor && at < 0; p--) {
          Long m = known.unchanged(p) ? balloons.get(p).containers().get(cacheId) : null;
          if (m != null) {
            at = p;
            milli = m;
          }
        }
      }
      if (floor > at) {
        at = floor;
        milli = e.changedMilli;
        kept = false;
      }
      e.position = at;
      e.milli = milli;
      return kept;
    }

    /**
     * Works out {@code e}'s assignment for container {@code c}, located in this call; its overrides
     * are the previous call's if its pod did not change.
     */
    private void work(KnownAssignments.Entry e, Container c, long call) {
      PinningOverrides o = e.overrides;
      boolean samePod = e.seen == call - 1 && e.samePod(c) && !known.podChanged(e);
      if (o == null || !samePod) {
        o = e.position < 0 ? null : overridesOrNull(node, c);
      }
      e.container(c);
      e.overrides = o;
      e.wanted =
          e.position < 0
              ? null
              : wanted(e.position, e.milli, o == null ? PinningOverrides.NONE : o);
      e.update = e.wanted != null && !e.wanted.equals(c.assignment());
      // a malformed annotation (no overrides while in a balloon): warned about at every call
      e.seen = o == null && e.position >= 0 ? -1 : call;
    }

    /** The assignment of a container of the balloon at {@code p} requesting {@code milli}. */
    private Assignment wanted(int p, long milli, PinningOverrides o) {
      Balloon b = balloons.get(p);
      if (!o.equals(PinningOverrides.NONE)) {
        return of(b, cpus[p], milli, o);
      }
      Assignment plain = known.plain(p);
      if (plain == null) {
        plain = of(b, cpus[p], 0, PinningOverrides.NONE);
        known.plain(p, plain);
      }
      if (!options.pinCpu()) {
        return plain;
      }
      Map<Long, Assignment> shares = byMilli[p];
      if (shares == null) {
        shares = new HashMap<>();
        byMilli[p] = shares;
      }
      Assignment a = shares.get(milli);
      if (a == null) {
        a = plain.withCpuShares(milliCpuToShares(milli));
        shares.put(milli, a);
      }
      return a;
    }
  }

  /**
   * The annotated overrides of container {@code c}, or null (warned about) if one of them is
   * malformed.
   */
  private @Nullable PinningOverrides overridesOrNull(NodeState node, Container c) {
    try {
      return overrides(node, c, true);
    } catch (PolicyException e) {
      LOG.warn("{}: {}; using its balloon type's settings", c.name(), e.getMessage());
      return null;
    }
  }

  /**
   * The annotated overrides of container {@code c} ({@code cacheId}); none if it or its pod is
   * unknown. A malformed annotation throws for the {@code subject}, else it is ignored.
   */
  private PinningOverrides overrides(NodeState node, @Nullable Container c, boolean subject) {
    if (c == null) {
      return PinningOverrides.NONE;
    }
    Pod pod = node.podOrNull(c.podId());
    if (pod == null || !pinning.mentionsAny(pod, node)) {
      return PinningOverrides.NONE;
    }
    try {
      return PinningOverrides.of(pod, c.name(), memory.present());
    } catch (PolicyException e) {
      if (subject) {
        throw e;
      }
      LOG.warn("{}: {}; using its balloon type's settings", c.name(), e.getMessage());
      return PinningOverrides.NONE;
    }
  }

  /**
   * The assignment of a container of {@code b} requesting {@code milli}, pinned to {@code cpus}
   * (the balloon's and its shared idle CPUs), with annotated {@code overrides}.
   */
  Assignment of(Balloon b, CpuSet cpus, long milli, PinningOverrides overrides) {
    Assignment a = Assignment.NONE;
    BalloonType t = types.get(b.type());
    if (options.pinCpu()) {
      boolean hide = t != null && overrides.hideHyperthreads(t);
      a = a.withCpus(hide ? oneThreadPerCore(cpus) : cpus).withCpuShares(milliCpuToShares(milli));
    }
    if (t != null && options.pinMemory(t) && !overrides.preserveMemory() && !cpus.isEmpty()) {
      a = a.withMems(memory.of(cpus, overrides.memoryTypes(t)));
    }
    return a;
  }

  /** The shared idle CPUs of every balloon of {@code set}, by balloon name. */
  Map<String, CpuSet> sharedIdle(BalloonSet set) {
    return sharing.byBalloon(set);
  }

  /** The shared idle CPUs of {@code b} (for introspection and metrics). */
  CpuSet sharedIdle(Balloon b, BalloonSet set) {
    return sharing.sharedIdle(b, set);
  }

  /** The lowest online CPU of each physical core of {@code cpus}. */
  CpuSet oneThreadPerCore(CpuSet cpus) {
    CpuSet kept = CpuSet.EMPTY;
    for (int id : cpus.stream().toArray()) {
      boolean online = topology.cpus().containsKey(id);
      if (!online || !topology.coreCpus(id).intersects(kept)) {
        kept = kept.union(CpuSet.of(id));
      }
    }
    return kept;
  }

  /** Kubernetes' conversion: {@code milli * 1024 / 1000}, at least 2, at most 262144. */
  static long milliCpuToShares(long milli) {
    long shares = milli * 1024 / 1000;
    return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
  }
}
