package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Scores the pools for a request and picks the best, in cri-resmgr's order ({@code
 * sortPoolsByScore}, {@code compareScores}). Pools without enough memory are left out first; then,
 * the first decisive rule wins:
 *
 * <ol>
 *   <li>insufficient capacity loses (normal: isolated below 0 or shared capacity not {@link
 *       PoolScore#sharedFits fitting}; reserved: reserved below 0);
 *   <li>the higher affinity score wins;
 *   <li>the higher product of the device hints' scores wins; if both are 0, the higher product of
 *       the non-zero ones ({@link DeviceHintScores}; nri-plugins' place, cri-resmgr's came after
 *       memory types);
 *   <li>if the request's memory limit is above what it reserves (Burstable), the pool whose memory
 *       of the allowed types holds the limit wins (nri-plugins);
 *   <li>a Burstable request reserving memory without a memory limit: the pool with more memory of
 *       the allowed types wins (nri-plugins);
 *   <li>a Burstable request without a CPU limit: the pool at the {@code UnlimitedBurstable} level
 *       (or the container's {@code unlimited-burstable} annotation) wins (both at it: more shared
 *       capacity, then the lower id), else the pool above it, else the lower id (nri-plugins);
 *   <li>a Burstable request with a CPU limit above its request: the pool with at least as many CPUs
 *       as the limit wins (nri-plugins);
 *   <li>if the request restricts memory types, the pool having every type it allows wins;
 *   <li>high or low CPU priority preferred: the pool whose free sharable CPUs of that priority hold
 *       the request wins over one whose do not (nri-plugins' {@code PrioCapacity});
 *   <li>the deeper pool wins;
 *   <li>reserved: more reserved capacity per colocated container wins;
 *   <li>normal, isolating, with isolated capacity in either: more isolated wins, then the lower id;
 *   <li>normal priority preferred: as for high and low priority above, with normal priority CPUs;
 *   <li>normal with exclusive CPUs and shared capacity in either: more shared wins, then the lower
 *       id;
 *   <li>fewer colocated containers win, then more shared capacity;
 *   <li>the lower id wins.
 * </ol>
 *
 * The order is not a strict weak ordering in every corner (rule 1 mixes two measures), so the best
 * pool is found by a linear scan, as Go's sort would meet it, not by a library sort that may reject
 * the comparator.
 */
final class PoolSelector {
  private PoolSelector() {}

  /**
   * The scores of every pool with enough memory for the request, by pool id; {@code burstable} is
   * the {@code UnlimitedBurstable} option, which the container's {@code unlimited-burstable}
   * annotation overrides.
   */
  static List<PoolScore> candidates(
      Ledger ledger, ContainerRequest r, double[] affinity, Level burstable) {
    Level level =
        r.cpu().unlimitedBurstable()
            ? Preferences.unlimitedBurstable(r.pod(), r.container().name(), burstable)
            : burstable;
    PoolKind target = target(ledger.tree(), level);
    List<PoolScore> scores = new ArrayList<>();
    List<TopologyHint> hints = DeviceHintScores.effective(r);
    for (Pool p : ledger.tree().pools()) {
      if (fitsMemory(ledger, p, r.memory())) {
        scores.add(PoolScore.of(ledger, p, r.cpu(), r.memory(), affinity[p.id()], target, hints));
      }
    }
    return scores;
  }

  /**
   * The pool kind of {@code level} on {@code tree}: the deepest kind the tree has at or above it
   * (nri-plugins maps a missing level so too), the root's kind if there is none (one socket and
   * {@code system}).
   */
  static PoolKind target(PoolTree tree, Level level) {
    int deepest = PoolKind.of(level).depth();
    @Nullable PoolKind best = null;
    for (Pool p : tree.pools()) {
      int depth = p.kind().depth();
      if (depth <= deepest && (best == null || depth > best.depth())) {
        best = p.kind();
      }
    }
    return best != null ? best : tree.root().kind();
  }

  /**
   * Whether the pool's free memory, less the extra reservations of grants above it, holds the
   * request: PMEM first, then DRAM, then HBM, as the request allows; a cold start must fit in PMEM.
   */
  static boolean fitsMemory(Ledger ledger, Pool pool, MemoryRequest m) {
    long left = m.bytes();
    Memory free = ledger.freeMemory(pool.id());
    Memory extra = ledger.extraMemory(pool.id());
    for (MemoryType t : Memory.ALLOCATION_ORDER) {
      if (m.types().contains(t)) {
        long available = free.get(t) - extra.get(t);
        if (available >= left) {
          return true;
        }
        left -= Math.max(0, available);
      }
      if (t == MemoryType.PMEM && !m.coldStart().isZero()) {
        return false;
      }
    }
    return false;
  }

  /** The best candidate, if any. */
  static Optional<PoolScore> best(List<PoolScore> candidates, CpuRequest r) {
    PoolScore best = null;
    for (PoolScore s : candidates) {
      if (best == null || compare(s, best, r) < 0) {
        best = s;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The candidates best first (insertion sort: stable and tolerant of the comparator). */
  static List<PoolScore> sorted(List<PoolScore> candidates, CpuRequest r) {
    List<PoolScore> out = new ArrayList<>();
    for (PoolScore s : candidates) {
      int i = out.size();
      while (i > 0 && compare(s, out.get(i - 1), r) < 0) {
        i--;
      }
      out.add(i, s);
    }
    return out;
  }

  /** Negative if {@code a} is the better pool for {@code r}, positive if {@code b} is. */
  static int compare(PoolScore a, PoolScore b, CpuRequest r) {
    return Integer.signum(ranked(a, b, r));
  }

  /**
   * What {@link #compare} says, with the rule that decided: negative if {@code a} is better,
   * positive if {@code b} is, 0 if they tie; the absolute value names the rule ({@link #rule}).
   */
  static int ranked(PoolScore a, PoolScore b, CpuRequest r) {
    int c = capacity(a, b, r.kind());
    if (c != 0) {
      return by(CAPACITY, c);
    }
    if (a.affinity() != b.affinity()) {
      return by(AFFINITY, a.affinity() > b.affinity() ? -1 : 1);
    }
    if (a.hints() != b.hints()) {
      return by(HINTS, a.hints() > b.hints() ? -1 : 1);
    }
    if (a.hints() == 0 && a.hintsNonZero() != b.hintsNonZero()) {
      return by(HINTS, a.hintsNonZero() > b.hintsNonZero() ? -1 : 1);
    }
    if (a.limitFits() != b.limitFits()) {
      return by(LIMIT_FITS, a.limitFits() ? -1 : 1);
    }
    if (a.memoryRoom() != b.memoryRoom()) {
      return by(MEMORY_ROOM, a.memoryRoom() > b.memoryRoom() ? -1 : 1);
    }
    if (r.unlimitedBurstable()) {
      return by(BURSTABLE_LEVEL, burstableLevel(a, b));
    }
    if (a.cpuLimitFits() != b.cpuLimitFits()) {
      return by(CPU_LIMIT, a.cpuLimitFits() ? -1 : 1);
    }
    if (a.memoryTypes() != b.memoryTypes()) {
      return by(MEMORY_TYPES, a.memoryTypes() ? -1 : 1);
    }
    if (r.priority() == CpuPriority.HIGH || r.priority() == CpuPriority.LOW) {
      c = priority(a, b, r.priority());
      if (c != 0) {
        return by(PRIORITY, c);
      }
    }
    if (a.pool().depth() != b.pool().depth()) {
      return by(DEPTH, a.pool().depth() > b.pool().depth() ? -1 : 1);
    }
    c = r.kind() == CpuKind.RESERVED ? by(RESERVED, reserved(a, b)) : normal(a, b, r);
    return c != 0 ? c : by(ID, Integer.compare(a.pool().id(), b.pool().id()));
  }

  /** The rule {@link #ranked} names by {@code code}, as a short phrase. */
  static String rule(int code) {
    return RULES[Math.abs(code)];
  }

  private static final int CAPACITY = 1;
  private static final int AFFINITY = 2;
  private static final int HINTS = 3;
  private static final int LIMIT_FITS = 4;
  private static final int MEMORY_ROOM = 5;
  private static final int BURSTABLE_LEVEL = 6;
  private static final int CPU_LIMIT = 7;
  private static final int MEMORY_TYPES = 8;
  private static final int PRIORITY = 9;
  private static final int DEPTH = 10;
  private static final int RESERVED = 11;
  private static final int ISOLATED = 12;
  private static final int SHARED = 13;
  private static final int COLOCATED = 14;
  private static final int ID = 15;

  private static final String[] RULES = {
    "tie",
    "enough capacity",
    "higher affinity",
    "closer to the devices",
    "memory holds the limit",
    "more memory",
    "nearer the unlimited-burstable level",
    "as many CPUs as the CPU limit",
    "every allowed memory type",
    "CPUs of the preferred priority",
    "deeper pool",
    "more reserved capacity per container",
    "more free isolated CPUs",
    "more shared capacity",
    "fewest colocated containers",
    "lower pool id"
  };

  private static int by(int rule, int sign) {
    return Integer.signum(sign) * rule;
  }

  /** Whether the pool has the capacity the request needs (rule 1 would not make it lose). */
  static boolean sufficient(PoolScore s, CpuRequest r) {
    return r.kind() == CpuKind.RESERVED ? s.reserved() >= 0 : s.sharedFits();
  }

  private static int capacity(PoolScore a, PoolScore b, CpuKind kind) {
    if (kind == CpuKind.RESERVED) {
      if (b.reserved() < 0 && a.reserved() >= 0) {
        return -1;
      }
      return a.reserved() < 0 && b.reserved() >= 0 ? 1 : 0;
    }
    if ((b.isolated() < 0 && a.isolated() >= 0) || (!b.sharedFits() && a.sharedFits())) {
      return -1;
    }
    if ((a.isolated() < 0 && b.isolated() >= 0) || (!a.sharedFits() && b.sharedFits())) {
      return 1;
    }
    return 0;
  }

  private static int reserved(PoolScore a, PoolScore b) {
    long ra = a.reserved() / (a.colocated() + 1);
    long rb = b.reserved() / (b.colocated() + 1);
    return Long.compare(rb, ra);
  }

  private static int normal(PoolScore a, PoolScore b, CpuRequest r) {
    if (r.isolate() && (a.isolated() > 0 || b.isolated() > 0)) {
      return by(ISOLATED, byIdIfTied(Long.compare(b.isolated(), a.isolated()), a, b));
    }
    int c = r.priority() == CpuPriority.NORMAL ? priority(a, b, CpuPriority.NORMAL) : 0;
    if (c != 0) {
      return by(PRIORITY, c);
    }
    if (r.full() > 0 && (a.shared() > 0 || b.shared() > 0)) {
      return by(SHARED, byIdIfTied(Long.compare(b.shared(), a.shared()), a, b));
    }
    if (a.colocated() != b.colocated()) {
      return by(COLOCATED, Integer.compare(a.colocated(), b.colocated()));
    }
    return by(SHARED, Long.compare(b.shared(), a.shared()));
  }

  private static int burstableLevel(PoolScore a, PoolScore b) {
    if (a.level() == 0 && b.level() == 0) {
      return byIdIfTied(Long.compare(b.shared(), a.shared()), a, b);
    }
    if (a.level() == 0 || b.level() == 0) {
      return a.level() == 0 ? -1 : 1;
    }
    if (Integer.signum(a.level()) != Integer.signum(b.level())) {
      return a.level() < 0 ? -1 : 1;
    }
    return Integer.compare(a.pool().id(), b.pool().id());
  }

  /** The pool whose {@code prio} CPUs hold the request wins if the other's do not. */
  private static int priority(PoolScore a, PoolScore b, CpuPriority prio) {
    boolean fitsA = a.capacity(prio) >= 0;
    boolean fitsB = b.capacity(prio) >= 0;
    return fitsA == fitsB ? 0 : fitsA ? -1 : 1;
  }

  private static int byIdIfTied(int c, PoolScore a, PoolScore b) {
    return c != 0 ? c : Integer.compare(a.pool().id(), b.pool().id());
  }
}
