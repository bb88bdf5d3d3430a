package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The balloons of one decision, changed in place: which CPUs are free, resizing a balloon to fit
 * its containers, creating and deleting instances. Not thread-safe; one per policy call.
 */
final class BalloonSet {
  private final List<Balloon> balloons;
  private final Map<String, BalloonType> types;
  private final Map<String, CpuTreeAllocator> allocators;
  private final CpuSet allowed;
  private final CpuSet reserved;
  private final Map<String, Explanation> explained = new HashMap<>();
  private CpuSet preferred = CpuSet.EMPTY;
  private @Nullable Loads loads;

  BalloonSet(
      List<Balloon> balloons,
      Map<String, BalloonType> types,
      Map<String, CpuTreeAllocator> allocators,
      CpuSet allowed,
      CpuSet reserved) {
    this.balloons = new ArrayList<>(balloons);
    this.types = Objects.requireNonNull(types, "types");
    this.allocators = Objects.requireNonNull(allocators, "allocators");
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    this.reserved = Objects.requireNonNull(reserved, "reserved");
  }

  /**
   * Makes balloons that grow in this decision take {@code cpus} first where they are free (the CPUs
   * an adopted container runs on).
   */
  void prefer(CpuSet cpus) {
    preferred = Objects.requireNonNull(cpus, "cpus");
  }

  /** Makes growing balloons avoid the CPUs their types' loads avoid. */
  void loads(Loads l) {
    loads = Objects.requireNonNull(l, "l");
  }

  /** The balloons, in creation order. */
  List<Balloon> balloons() {
    return List.copyOf(balloons);
  }

  /** The types of the balloons, by name. */
  Map<String, BalloonType> types() {
    return Collections.unmodifiableMap(types);
  }

  /** The CPUs the balloons may use, the reserved ones included. */
  CpuSet allowed() {
    return allowed;
  }

  /** The balloons of {@code type}. */
  List<Balloon> ofType(String type) {
    return balloons.stream().filter(b -> b.type().equals(type)).toList();
  }

  /** The allowed CPUs that are neither reserved nor in a resizable balloon. */
  CpuSet free() {
    CpuSet free = allowed;
    for (Balloon b : balloons) {
      free = free.difference(b.cpus());
    }
    return free;
  }

  /** The balloon holding {@code cacheId}. */
  /** Records why {@code cacheId} was placed into its balloon in this set. */
  void explain(String cacheId, Explanation why) {
    explained.put(cacheId, why);
  }

  /** Why {@code cacheId} was placed, if it was placed in this set. */
  Optional<Explanation> explanation(String cacheId) {
    return Optional.ofNullable(explained.get(cacheId));
  }

  Optional<Balloon> holding(String cacheId) {
    return balloons.stream().filter(b -> b.containers().containsKey(cacheId)).findFirst();
  }

  /** The type of {@code b}. */
  BalloonType type(Balloon b) {
    return Objects.requireNonNull(types.get(b.type()), b.type());
  }

  /** The allocator of {@code b}'s type; every type has one. */
  private CpuTreeAllocator allocator(Balloon b) {
    return Objects.requireNonNull(allocators.get(b.type()), () -> "no allocator for " + b.type());
  }

  /** The CPUs {@code b} should have for its containers, within the type's limits. */
  int targetCpus(Balloon b) {
    BalloonType t = type(b);
    int need = b.containers().isEmpty() ? 0 : cpusFor(b.requestMilli());
    int size = Math.max(need, t.minCpus());
    return t.maxCpus() == 0 ? size : Math.min(size, t.maxCpus());
  }

  /**
   * The CPUs a growing reserved balloon {@code b} should have: its target, at least the reserved
   * CPUs, at most what it has plus the free CPUs (beyond that it is overbooked, as the reserved
   * balloon always may be: a kube-system container never fails for want of CPUs).
   */
  private int reservedTargetCpus(Balloon b) {
    int most = b.cpus().size() + free().size();
    return Math.max(reserved.size(), Math.min(targetCpus(b), most));
  }

  /** {@code ceil(max(1, milli) / 1000)}. */
  static int cpusFor(long milli) {
    return (int) ((Math.max(1, milli) + 999) / 1000);
  }

  /** Most CPUs {@code b} can grow to: its type's maximum, or all it has plus the free CPUs. */
  int maxCpus(Balloon b) {
    if (b.fixed()) {
      return b.cpus().size();
    }
    int all = b.cpus().size() + free().size();
    int max = type(b).maxCpus();
    return max == 0 ? all : Math.min(max, all);
  }

  /** Replaces {@code old} by {@code now} and resizes it to its target. */
  Balloon replaceAndResize(Balloon old, Balloon now) {
    int at = balloons.indexOf(old);
    if (at < 0) {
      throw new IllegalStateException("unknown balloon " + old.name());
    }
    Balloon resized = resize(now);
    balloons.set(at, resized);
    return resized;
  }

  private Balloon resize(Balloon b) {
    if (b.fixed()) {
      return type(b).growsBeyondReserved() ? resizeReserved(b) : b;
    }
    int delta = targetCpus(b) - b.cpus().size();
    if (delta == 0) {
      return b;
    }
    CpuSet free = free().difference(b.cpus());
    if (delta < 0) {
      return b.withCpus(b.cpus().difference(allocator(b).resize(b.cpus(), free, delta)));
    }
    return b.withCpus(b.cpus().union(inflate(b, free, delta)));
  }

  /**
   * Resizes the reserved balloon {@code b} on top of the reserved CPUs, which it always keeps: it
   * grows next to them and gives back only CPUs it took beyond them.
   */
  private Balloon resizeReserved(Balloon b) {
    int delta = reservedTargetCpus(b) - b.cpus().size();
    if (delta > 0) {
      return b.withCpus(b.cpus().union(inflate(b, free(), delta)));
    }
    if (delta < 0) {
      CpuSet extra = b.cpus().difference(reserved);
      CpuSet gone = allocator(b).resize(extra, free(), delta);
      return b.withCpus(b.cpus().difference(gone));
    }
    return b;
  }

  /**
   * {@code count} CPUs of {@code free} for {@code b} to grow by, the preferred ones first; one at a
   * time if its loads overload their level, so that each CPU avoids the ones taken before it.
   */
  private CpuSet inflate(Balloon b, CpuSet free, int count) {
    if (loads == null || !loads.overloads(type(b))) {
      return inflate(b, b.cpus(), free, count);
    }
    CpuSet added = CpuSet.EMPTY;
    for (int n = 0; n < count; n++) {
      added = added.union(inflate(b, b.cpus().union(added), free.difference(added), 1));
    }
    return added;
  }

  private CpuSet inflate(Balloon b, CpuSet current, CpuSet free, int count) {
    CpuTreeAllocator allocator = allocator(b);
    CpuSet avoid = loads == null ? CpuSet.EMPTY : loads.avoided(b, current, this);
    CpuSet mine = free.intersection(preferred);
    if (mine.isEmpty()) {
      return allocator.resize(current, free, count, avoid);
    }
    if (mine.size() >= count) {
      return allocator.resize(current, mine, count, avoid);
    }
    CpuSet rest =
        allocator.resize(current.union(mine), free.difference(mine), count - mine.size(), avoid);
    return mine.union(rest);
  }

  /**
   * Creates a new instance of {@code type} with the lowest free index, sized to {@code MinCPUs}, or
   * {@code needCpus} if more.
   *
   * @throws PolicyException if the CPUs are not free
   */
  Balloon create(BalloonType type, int needCpus) {
    int index = 0;
    while (hasIndex(type.name(), index)) {
      index++;
    }
    Balloon b = Balloon.empty(type.name(), index, CpuSet.EMPTY, false);
    int size = Math.max(needCpus, type.minCpus());
    CpuSet picked = size == 0 ? CpuSet.EMPTY : inflate(b, free(), size);
    b = b.withCpus(picked);
    balloons.add(b);
    return b;
  }

  /** Adds a balloon as is (a built-in one). */
  void add(Balloon b) {
    balloons.add(b);
  }

  /** Deletes {@code b}, returning its CPUs to the free ones. */
  void delete(Balloon b) {
    balloons.remove(b);
  }

  private boolean hasIndex(String type, int index) {
    return balloons.stream().anyMatch(b -> b.type().equals(type) && b.index() == index);
  }
}
