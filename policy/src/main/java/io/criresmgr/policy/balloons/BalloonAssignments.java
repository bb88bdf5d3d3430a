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
   * the {@link Decisions} with them and the policy data).
   *
   * @throws PolicyException if an annotation of {@code subject} is malformed (those of other
   *     containers are ignored then, with a warning, so that one cannot block every decision)
   */
  List<Decisions.Update> decide(BalloonSet set, NodeState node, @Nullable String subject) {
    Wanted wanted = new Wanted(set, node, subject);
    List<Decisions.Update> updates = new ArrayList<>();
    if (subject != null) {
      Assignment a = wanted.of(subject, node.container(subject).orElse(null));
      if (a != null) {
        updates.add(new Decisions.Update(subject, a));
      }
    }
    for (Container c : node.containers()) {
      if (c.cacheId().equals(subject) || !c.state().isActive()) {
        continue;
      }
      Assignment a = wanted.of(c.cacheId(), c);
      if (a != null && !a.equals(c.assignment())) {
        updates.add(new Decisions.Update(c.cacheId(), a));
      }
    }
    return updates;
  }

  /**
   * The assignments of the containers of one decision's balloons, worked out per balloon when first
   * asked: most containers have no overrides and differ only in CPU shares, so the rest (memory
   * nodes above all) is computed once per balloon, and containers of equal requests share one
   * assignment.
   */
  private final class Wanted {
    private final List<Balloon> balloons;
    private final Map<String, CpuSet> shared;
    private final NodeState node;
    private final @Nullable String subject;
    private final @Nullable Assignment[] plain;
    private final List<Map<Long, Assignment>> byMilli;

    /** Cache id to the index of its balloon: one hash lookup per container, not one per balloon. */
    private final Map<String, Integer> index;

    Wanted(BalloonSet set, NodeState node, @Nullable String subject) {
      this.balloons = set.balloons();
      this.shared = sharing.byBalloon(set);
      this.node = node;
      this.subject = subject;
      this.plain = new Assignment[balloons.size()];
      this.byMilli = new ArrayList<>(balloons.size());
      this.index = new HashMap<>();
      for (int i = 0; i < balloons.size(); i++) {
        byMilli.add(null);
        for (String id : balloons.get(i).containers().keySet()) {
          index.put(id, i); // the last balloon holding it, as before
        }
      }
    }

    /**
     * The assignment of {@code cacheId} ({@code c}, null if unknown to the cache), null if it is in
     * no balloon.
     */
    @Nullable Assignment of(String cacheId, @Nullable Container c) {
      Integer i = index.get(cacheId);
      if (i == null) {
        return null;
      }
      Balloon b = balloons.get(i);
      Long milli = b.containers().get(cacheId);
      return of(i, b, milli == null ? 0 : milli, overrides(node, c, cacheId.equals(subject)));
    }

    private Assignment of(int i, Balloon b, long milli, PinningOverrides o) {
      Assignment p = plain[i];
      if (p == null) {
        p = BalloonAssignments.this.of(b, cpus(b), 0, PinningOverrides.NONE);
        plain[i] = p;
      }
      if (!o.equals(PinningOverrides.NONE)) {
        return BalloonAssignments.this.of(b, cpus(b), milli, o);
      }
      if (!options.pinCpu()) {
        return p;
      }
      Map<Long, Assignment> shares = byMilli.get(i);
      if (shares == null) {
        shares = new HashMap<>();
        byMilli.set(i, shares);
      }
      Assignment base = p;
      return shares.computeIfAbsent(milli, m -> base.withCpuShares(milliCpuToShares(m)));
    }

    /** The CPUs of {@code b}'s containers: its own and its shared idle ones. */
    private CpuSet cpus(Balloon b) {
      CpuSet idle = shared.get(b.name());
      return idle == null || idle.isEmpty() ? b.cpus() : b.cpus().union(idle);
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
    Pod pod = node.pod(c.podId()).orElse(null);
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
