package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.Level;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks a pool for a request and allocates a grant from it (cri-resmgr's {@code allocatePool} and
 * {@code supply.Allocate}): reserved and CPU-preserving requests, and normal requests of {@code
 * kube-system} containers, go to the root; others to the best scored pool ({@link PoolSelector}),
 * or to the hinted pool when it is a candidate with capacity left (cri-resmgr uses it even
 * without). Exclusive CPUs come from the pool's free isolated CPUs when the request prefers
 * isolation and there are enough, else they are sliced off its sharable CPUs: an idle pool may be
 * sliced empty, but a pool whose shared CPUs containers use keeps at least one, and enough for
 * their requests, at every level ({@link Ledger#canSlice}). Memory is taken from PMEM, then DRAM,
 * then HBM, as the request allows. The memory guarantee then widens other grants if needed ({@link
 * MemoryGuarantee}).
 */
final class GrantAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(GrantAllocator.class);

  private final CpuPicker picker;
  private final Level unlimitedBurstable;

  /** An allocator taking CPUs with {@code picker}; {@code unlimitedBurstable} is the option. */
  GrantAllocator(CpuPicker picker, Level unlimitedBurstable) {
    this.picker = Objects.requireNonNull(picker, "picker");
    this.unlimitedBurstable = Objects.requireNonNull(unlimitedBurstable, "unlimitedBurstable");
  }

  /**
   * Allocates for {@code r} into {@code ledger} and enforces the memory guarantee.
   *
   * @param affinity the affinity score of every pool for the container
   * @param hint a pool name to use if it is a candidate (re-allocation), or null
   * @param explain receives why the grant's pool was chosen
   * @return the container's grant
   * @throws PolicyException saying what was asked and what is free when nothing fits, with an
   *     explanation naming the closest pool
   */
  Grant allocate(
      Ledger ledger,
      ContainerRequest r,
      double[] affinity,
      @Nullable String hint,
      MemoryGuarantee.Names names,
      Consumer<Explanation> explain) {
    PoolTree tree = ledger.tree();
    ContainerRequest req = r;
    if (req.cpu().kind() == CpuKind.RESERVED && tree.root().reserved().isEmpty()) {
      req = req.withCpu(kind(req.cpu(), CpuKind.NORMAL)); // no reserved CPUs: use normal ones
    }
    Choice choice = choose(ledger, req, affinity, hint);
    PoolScore chosen = choice.best();
    Pool pool = chosen == null ? tree.root() : chosen.pool();
    Grant grant;
    try {
      grant = allocateFrom(ledger, pool, req);
    } catch (PolicyException e) {
      // the best pool lacked capacity (every pool does): say so rather than why that one failed
      throw chosen != null && !PoolSelector.sufficient(chosen, req.cpu())
          ? noRoom(ledger, req, e, choice)
          : refusal(e, pool, choice, req);
    }
    explain.accept(choice.why());
    ledger.add(grant);
    LOG.debug(
        "{}: allocated {} from {}: exclusive {}, memory {} at {} (nodes {})",
        req.prettyName(),
        req.describe(),
        pool.name(),
        grant.exclusive(),
        grant.memory(),
        tree.pool(grant.memoryPool()).name(),
        grant.memset());
    try {
      MemoryGuarantee.enforce(ledger, grant, names);
    } catch (PolicyException e) {
      ledger.remove(grant.cacheId()); // callers that go on (rebalance, restore) must not keep it
      throw e;
    }
    return ledger.grant(grant.cacheId()).orElseThrow();
  }

  /**
   * The pool chosen and why.
   *
   * @param best the best scored pool, or null for requests that go to the root without scoring
   * @param candidates the pools scored
   * @param why the explanation of the choice
   */
  private record Choice(@Nullable PoolScore best, List<PoolScore> candidates, Explanation why) {}

  /** Chooses the pool for {@code r}. */
  private Choice choose(
      Ledger ledger, ContainerRequest r, double[] affinity, @Nullable String hint) {
    PoolTree tree = ledger.tree();
    if (r.cpu().kind() != CpuKind.NORMAL) {
      String why =
          r.cpu().kind() == CpuKind.RESERVED ? "reserved CPUs are the root's" : "CPUs preserved";
      return new Choice(null, List.of(), PoolExplanation.root(tree, why));
    }
    if (r.container().namespace().equals("kube-system")) {
      return new Choice(
          null, List.of(), PoolExplanation.root(tree, "kube-system containers go to the root"));
    }
    List<PoolScore> candidates = PoolSelector.candidates(ledger, r, affinity, unlimitedBurstable);
    if (DeviceHintScores.mode(r.pod(), r.container()) == DeviceHintScores.Mode.STRICT) {
      candidates = closeToDevices(ledger, r, candidates);
    }
    if (hint != null) {
      Optional<PoolScore> hinted =
          candidates.stream()
              .filter(s -> s.pool().name().equals(hint) && PoolSelector.sufficient(s, r.cpu()))
              .findFirst();
      if (hinted.isPresent()) {
        return new Choice(hinted.get(), candidates, PoolExplanation.kept(hinted.get(), r.cpu()));
      }
      LOG.debug("{}: cannot use hinted pool {}", r.prettyName(), hint);
    }
    if (LOG.isDebugEnabled()) {
      LOG.debug("{}: pool fitting for {}", r.prettyName(), r.describe());
      PoolSelector.sorted(candidates, r.cpu()).forEach(s -> LOG.debug("  - {}", s));
    }
    Optional<PoolScore> best = PoolSelector.best(candidates, r.cpu());
    if (best.isEmpty()) {
      Memory free = ledger.freeMemory(tree.root().id());
      throw new PolicyException(
          "topology-aware: cannot allocate "
              + r.describe()
              + " for "
              + r.prettyName()
              + ": no pool has enough memory; the root has "
              + free
              + " free",
          null,
          PoolExplanation.refused(
              "no pool has enough memory for " + r.describe() + " (root: " + free + " free)",
              null,
              candidates,
              r.cpu()));
    }
    return new Choice(
        best.get(), candidates, PoolExplanation.chosen(best.get(), candidates, r.cpu()));
  }

  /** {@code e}, which allocating from {@code pool} failed with, explained. */
  private static PolicyException refusal(
      PolicyException e, Pool pool, Choice choice, ContainerRequest r) {
    if (e.why().isPresent()) {
      return e;
    }
    String what = "pool " + pool.name() + " cannot grant " + r.describe();
    return new PolicyException(
        e.getMessage() == null ? what : e.getMessage(),
        e,
        choice.best() == null
            ? Explanation.of("refused: " + what + ": " + e.getMessage())
            : PoolExplanation.refused(what, choice.best(), choice.candidates(), r.cpu()));
  }

  /**
   * The candidates close to every device of a container with strict hints.
   *
   * @throws PolicyException naming the devices and the close pools when none of them has room
   */
  private static List<PoolScore> closeToDevices(
      Ledger ledger, ContainerRequest r, List<PoolScore> candidates) {
    List<TopologyHint> hints = r.container().topologyHints();
    List<PoolScore> close = candidates.stream().filter(s -> closeToAll(s.pool(), hints)).toList();
    if (close.stream().anyMatch(s -> PoolSelector.sufficient(s, r.cpu()))) {
      return close;
    }
    List<String> pools =
        ledger.tree().pools().stream().filter(p -> closeToAll(p, hints)).map(Pool::name).toList();
    throw new PolicyException(
        "topology-aware: cannot allocate "
            + r.describe()
            + " for "
            + r.prettyName()
            + " with strict topology hints ("
            + Annotations.key(DeviceHintScores.STRICT)
            + "): "
            + (pools.isEmpty()
                ? "no pool lies close to every device"
                : "no pool close to every device has room for it (close: "
                    + String.join(", ", pools)
                    + ")")
            + "; devices: "
            + hints.stream().map(TopologyHint::describe).collect(Collectors.joining(", ")));
  }

  private static boolean closeToAll(Pool pool, List<TopologyHint> hints) {
    return hints.stream().allMatch(h -> DeviceHintScores.close(pool, h));
  }

  private static PolicyException noRoom(
      Ledger ledger, ContainerRequest r, PolicyException e, Choice choice) {
    int root = ledger.tree().root().id();
    CpuSet shared = ledger.freeSharable(root);
    return new PolicyException(
        "topology-aware: cannot allocate "
            + r.describe()
            + " for "
            + r.prettyName()
            + ": no pool has room for it; the root has "
            + ledger.allocatableShared(root)
            + "m of shared CPU left"
            + (shared.isEmpty() ? "" : " on CPUs " + shared)
            + " (a pool whose shared CPUs containers use keeps at least one of them), "
            + ledger.freeIsolated(root).size()
            + " free isolated CPUs and free memory "
            + ledger.freeMemory(root),
        e,
        PoolExplanation.refused(
            "no pool has room for " + r.describe(), choice.best(), choice.candidates(), r.cpu()));
  }

  /** Allocates CPUs and memory for {@code r} from {@code pool} (the grant is not recorded). */
  Grant allocateFrom(Ledger ledger, Pool pool, ContainerRequest r) {
    CpuRequest c = reservedAsFraction(r);
    CpuKind kind = reservedOrNormal(ledger, pool, r, c);
    CpuSet exclusive = kind == CpuKind.NORMAL ? exclusive(ledger, pool, r, c.full()) : CpuSet.EMPTY;
    long fraction = kind == CpuKind.PRESERVE ? 0 : c.fractionMilli();
    checkFraction(ledger, pool, r, kind, exclusive, fraction);
    checkSharedLeft(ledger, pool, r, kind, exclusive, fraction);
    Memory memory = MemorySupply.take(ledger, pool, r);
    MemoryRequest m = r.memory();
    boolean coldStart =
        !m.coldStart().isZero()
            && m.types().contains(MemoryType.PMEM)
            && m.types().contains(MemoryType.DRAM);
    Set<MemoryType> initial = coldStart ? EnumSet.of(MemoryType.PMEM) : m.types();
    return new Grant(
        r.container().cacheId(),
        kind,
        pool.id(),
        exclusive,
        fraction,
        pool.id(),
        m.types(),
        MemorySupply.memset(pool, initial),
        memory,
        coldStart ? m.coldStart() : Duration.ZERO,
        0,
        c.hideHyperthreads(),
        m.preserve());
  }

  /** Reserved CPUs are never exclusive: whole CPUs asked for count as a fraction. */
  private static CpuRequest reservedAsFraction(ContainerRequest r) {
    CpuRequest c = r.cpu();
    if (c.kind() != CpuKind.RESERVED || c.full() == 0) {
      return c;
    }
    LOG.warn(
        "{}: exclusive reserved CPUs are not supported, {} CPUs taken as a fraction",
        r.prettyName(),
        c.full());
    return new CpuRequest(
        c.kind(),
        0,
        c.fractionMilli() + 1000L * c.full(),
        c.isolate(),
        c.requireIsolated(),
        c.priority(),
        c.hideHyperthreads(),
        c.limitMilli());
  }

  /** The request's kind, or normal for a reserved request the reserved CPUs cannot hold. */
  private static CpuKind reservedOrNormal(
      Ledger ledger, Pool pool, ContainerRequest r, CpuRequest c) {
    long left = ledger.allocatableReserved(pool.id());
    if (c.kind() != CpuKind.RESERVED || c.fractionMilli() == 0 || left >= c.fractionMilli()) {
      return c.kind();
    }
    LOG.warn(
        "{}: needs {}m reserved CPU, {} has {}m left; using normal CPUs instead (is"
            + " ReservedResources big enough?)",
        r.prettyName(),
        c.fractionMilli(),
        pool.name(),
        left);
    return CpuKind.NORMAL;
  }

  private CpuSet exclusive(Ledger ledger, Pool pool, ContainerRequest r, int full) {
    if (full == 0) {
      return CpuSet.EMPTY;
    }
    CpuRequest c = r.cpu();
    CpuPriority prio = c.priority() == CpuPriority.NONE ? CpuPriority.HIGH : c.priority();
    CpuSet isolated = ledger.freeIsolated(pool.id());
    CpuSet taken;
    if (c.isolate() && isolated.size() >= full) {
      taken = picker.take(isolated, full, prio);
    } else if (ledger.allocatableShared(pool.id()) >= 1000L * full
        && ledger.canSlice(pool.id(), full)) {
      taken = picker.take(ledger.freeSharable(pool.id()), full, prio);
      if (!ledger.leavesEnough(pool.id(), taken)) {
        taken = picker.take(sliceable(ledger, pool, prio), full, prio);
      }
    } else {
      throw new PolicyException(
          String.format(
              "topology-aware: cannot allocate %s for %s: %s cannot slice %d exclusive CPUs off"
                  + " its sharable CPUs %s (%dm allocatable, %d of them kept shared for the"
                  + " containers using them) and has %d free isolated CPUs",
              r.describe(),
              r.prettyName(),
              pool.name(),
              full,
              ledger.freeSharable(pool.id()),
              ledger.allocatableShared(pool.id()),
              ledger.keptCount(pool.id()),
              isolated.size()));
    }
    if (c.requireIsolated() && !pool.isolated().containsAll(taken)) {
      throw new PolicyException(
          String.format(
              "topology-aware: %s requires isolated CPUs for its %d exclusive CPUs, but %s has"
                  + " only %d free isolated CPUs (%s)",
              r.prettyName(), full, pool.name(), isolated.size(), isolated));
    }
    return taken;
  }

  /**
   * The pool's free sharable CPUs an exclusive grant may take when the picker's first choice would
   * leave a pool too few: all but those the pool and its descendants keep shared ({@link
   * Ledger#keptCount}). Of a pool's CPUs, it keeps those the picker would take last.
   */
  private CpuSet sliceable(Ledger ledger, Pool pool, CpuPriority prio) {
    return ledger.freeSharable(pool.id()).difference(kept(ledger, pool, prio));
  }

  private CpuSet kept(Ledger ledger, Pool pool, CpuPriority prio) {
    if (ledger.keptCount(pool.id()) == 0) {
      return CpuSet.EMPTY;
    }
    CpuSet kept = CpuSet.EMPTY;
    for (int c : pool.children()) {
      kept = kept.union(kept(ledger, ledger.tree().pool(c), prio));
    }
    CpuSet rest = ledger.freeSharable(pool.id()).difference(kept);
    int more = Math.min(rest.size(), ledger.keptOwn(pool.id()) - kept.size());
    if (more > 0) {
      CpuSet given =
          more == rest.size() ? CpuSet.EMPTY : picker.take(rest, rest.size() - more, prio);
      kept = kept.union(rest.difference(given));
    }
    return kept;
  }

  /**
   * A container using shared CPUs needs some: fails when every shared CPU its pool and the pool's
   * ancestors have is held exclusively (possible once idle pools are sliced empty).
   */
  private static void checkSharedLeft(
      Ledger ledger, Pool pool, ContainerRequest r, CpuKind kind, CpuSet exclusive, long fraction) {
    if (kind != CpuKind.NORMAL || (!exclusive.isEmpty() && fraction == 0)) {
      return;
    }
    if (GrantAssignments.shared(pool, ledger).isEmpty()) {
      throw new PolicyException(
          "topology-aware: cannot allocate "
              + r.describe()
              + " for "
              + r.prettyName()
              + ": no shared CPU is left in "
              + pool.name()
              + " or above it (exclusive grants hold them all)");
    }
  }

  private static void checkFraction(
      Ledger ledger, Pool pool, ContainerRequest r, CpuKind kind, CpuSet exclusive, long fraction) {
    if (fraction == 0) {
      return;
    }
    long sliced = 1000L * exclusive.difference(pool.isolated()).size();
    long left =
        kind == CpuKind.RESERVED
            ? ledger.allocatableReserved(pool.id())
            : kind == CpuKind.NORMAL ? ledger.allocatableShared(pool.id()) - sliced : fraction;
    if (left < fraction) {
      throw new PolicyException(
          "topology-aware: cannot allocate "
              + r.describe()
              + " for "
              + r.prettyName()
              + ": "
              + pool.name()
              + " has "
              + Math.max(0, left)
              + "m "
              + (kind == CpuKind.RESERVED ? "reserved" : "shared")
              + " CPU left");
    }
  }

  private static CpuRequest kind(CpuRequest c, CpuKind kind) {
    return new CpuRequest(
        kind,
        c.full(),
        c.fractionMilli(),
        c.isolate(),
        c.requireIsolated(),
        c.priority(),
        c.hideHyperthreads(),
        c.limitMilli());
  }
}
