package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.AvlTree.Node;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The grants and what they take from every pool (cri-resmgr's per-pool free supply, derived from
 * the grants instead of kept alongside them): exclusive CPUs, shared and reserved milli-CPUs
 * granted in each subtree, memory granted at each pool and the extra memory reservations that
 * grants of ancestors impose on it.
 *
 * <p>A ledger is either frozen (the state between decisions, shared and never changed) or a working
 * copy made with {@link #copy()} for one decision on the pipeline thread. The grants are a
 * persistent {@link GrantTable}, so a copy shares them and a decision allocates only what it
 * changes; the per-pool accounts are arrays as long as the pool tree is small.
 */
final class Ledger {
  private final PoolTree tree;
  private GrantTable grants;
  private final long[] shared;
  private final long[] reserved;
  private final int[] normalCount;
  private final int[] reservedCount;
  private final Memory[] granted;
  private final Memory[] extra;
  private final CpuSet[] freeSharable;
  private final int[] sharedUsers;
  private final int[] kept;
  // Indexes of the grants, kept in step with them by add and remove (so also through copies and
  // restores), persistent as the grants are: by pool, the grants that use the pool's own shared
  // CPUs; and the grants with exclusive CPUs.
  private final @Nullable Node<String, Grant>[] sharedByPool;
  private @Nullable Node<String, Grant> withExclusive;
  private final Set<String> touched = new LinkedHashSet<>();
  private CpuSet exclusive;
  private @Nullable SortedMap<String, CpuSet> cpuClasses;
  private boolean frozen;

  /** An empty, working ledger for {@code tree}. */
  Ledger(PoolTree tree) {
    this.tree = Objects.requireNonNull(tree, "tree");
    int n = tree.size();
    grants = GrantTable.EMPTY;
    shared = new long[n];
    reserved = new long[n];
    normalCount = new int[n];
    reservedCount = new int[n];
    granted = new Memory[n];
    extra = new Memory[n];
    Arrays.fill(granted, Memory.NONE);
    Arrays.fill(extra, Memory.NONE);
    freeSharable = new CpuSet[n];
    sharedUsers = new int[n];
    kept = new int[n];
    Arrays.fill(kept, -1);
    sharedByPool = roots(n);
    exclusive = CpuSet.EMPTY;
  }

  @SuppressWarnings("unchecked") // an array of a generic type: made of the raw type
  private static @Nullable Node<String, Grant>[] roots(int n) {
    return (@Nullable Node<String, Grant>[]) new Node<?, ?>[n];
  }

  private Ledger(Ledger from) {
    tree = from.tree;
    grants = from.grants; // persistent: shared, and replaced on change
    shared = from.shared.clone();
    reserved = from.reserved.clone();
    normalCount = from.normalCount.clone();
    reservedCount = from.reservedCount.clone();
    granted = from.granted.clone();
    extra = from.extra.clone();
    freeSharable = from.freeSharable.clone();
    sharedUsers = from.sharedUsers.clone();
    kept = from.kept.clone();
    sharedByPool = from.sharedByPool.clone();
    withExclusive = from.withExclusive;
    exclusive = from.exclusive;
    cpuClasses = from.cpuClasses;
  }

  /** A working copy. */
  Ledger copy() {
    return new Ledger(this);
  }

  /** Makes this ledger read-only and returns it. */
  Ledger freeze() {
    frozen = true;
    return this;
  }

  /**
   * The CPU classes of this ledger's grants: {@code plan} computes them for a working ledger, and a
   * copy keeps them until a grant with exclusive CPUs is added, replaced or removed (only those
   * grants and the annotations of their containers, which do not change, decide the classes). A
   * frozen ledger computes them each time.
   */
  SortedMap<String, CpuSet> cpuClasses(Supplier<SortedMap<String, CpuSet>> plan) {
    SortedMap<String, CpuSet> known = cpuClasses;
    if (known != null) {
      return known;
    }
    SortedMap<String, CpuSet> made = plan.get();
    if (!frozen) {
      cpuClasses = made;
    }
    return made;
  }

  /** The pool tree. */
  PoolTree tree() {
    return tree;
  }

  /** The grant of a container, if any. */
  Optional<Grant> grant(String cacheId) {
    return Optional.ofNullable(grants.get(cacheId));
  }

  /** The grant of a container, or null: {@link #grant} without the {@code Optional}. */
  @Nullable Grant grantOrNull(String cacheId) {
    return grants.get(cacheId);
  }

  /** Every grant, oldest first (a view of the grants when called). */
  Collection<Grant> grants() {
    return grants.grants();
  }

  /** The number of grants. */
  int size() {
    return grants.size();
  }

  /**
   * Gives {@code action} every grant that uses the pool's own shared CPUs ({@link
   * Grant#usesSharedCpus} and of that pool), in no particular order: the grants whose assignment a
   * change of the pool's free sharable CPUs changes.
   */
  void forEachSharedUser(int pool, Consumer<Grant> action) {
    AvlTree.forEach(sharedByPool[pool], action);
  }

  /** Gives {@code action} every grant with exclusive CPUs, in no particular order. */
  void forEachExclusive(Consumer<Grant> action) {
    AvlTree.forEach(withExclusive, action);
  }

  /** Cache ids of grants added, replaced or removed in this working copy. */
  Set<String> touched() {
    return touched;
  }

  /** Every exclusive CPU granted. */
  CpuSet exclusive() {
    return exclusive;
  }

  /** Records {@code g}, replacing the container's grant (in its place) if it has one. */
  void add(Grant g) {
    checkWritable();
    Grant old = grants.get(g.cacheId());
    if (old != null) {
      account(old, -1);
    }
    if (!g.exclusive().isEmpty() || (old != null && !old.exclusive().isEmpty())) {
      cpuClasses = null;
    }
    grants = grants.put(g, GrantJson.write(g, tree)); // a replaced grant keeps its place
    touched.add(g.cacheId());
    account(g, 1);
  }

  /** Removes and returns the container's grant, if it has one. */
  Optional<Grant> remove(String cacheId) {
    checkWritable();
    Grant g = grants.get(cacheId);
    if (g == null) {
      return Optional.empty();
    }
    grants = grants.remove(cacheId);
    if (!g.exclusive().isEmpty()) {
      cpuClasses = null;
    }
    touched.add(cacheId);
    account(g, -1);
    return Optional.of(g);
  }

  private void account(Grant g, int sign) {
    Pool pool = tree.pool(g.pool());
    Arrays.fill(kept, -1);
    if (g.usesSharedCpus()) {
      sharedUsers[pool.id()] += sign;
      sharedByPool[pool.id()] = index(sharedByPool[pool.id()], g, sign);
    }
    if (!g.exclusive().isEmpty()) {
      withExclusive = index(withExclusive, g, sign);
    }
    if (g.kind() == CpuKind.NORMAL) {
      exclusive = sign > 0 ? exclusive.union(g.exclusive()) : exclusive.difference(g.exclusive());
      if (!g.exclusive().isEmpty()) {
        Arrays.fill(freeSharable, null);
      }
      addAlongPath(shared, pool, sign * g.fractionMilli());
      normalCount[pool.id()] += sign;
    } else if (g.kind() == CpuKind.RESERVED) {
      addAlongPath(reserved, pool, sign * g.fractionMilli());
      reservedCount[pool.id()] += sign;
    }
    int m = g.memoryPool();
    granted[m] = sign > 0 ? granted[m].plus(g.memory()) : granted[m].minus(g.memory());
    for (int d : tree.pool(m).descendants()) {
      extra[d] = sign > 0 ? extra[d].plus(g.memory()) : extra[d].minus(g.memory());
    }
  }

  private static @Nullable Node<String, Grant> index(
      @Nullable Node<String, Grant> root, Grant g, int sign) {
    return sign > 0
        ? AvlTree.put(root, g.cacheId(), g, GrantTable.BY_ID)
        : AvlTree.remove(root, g.cacheId(), GrantTable.BY_ID);
  }

  private static void addAlongPath(long[] sums, Pool pool, long amount) {
    sums[pool.id()] += amount;
    for (int a : pool.ancestors()) {
      sums[a] += amount;
    }
  }

  private void checkWritable() {
    if (frozen) {
      throw new IllegalStateException("frozen ledger");
    }
  }

  /** The pool's sharable CPUs no grant holds exclusively. */
  CpuSet freeSharable(int pool) {
    CpuSet free = freeSharable[pool];
    if (free == null) {
      free = tree.pool(pool).sharable().difference(exclusive);
      freeSharable[pool] = free;
    }
    return free;
  }

  /** The pool's isolated CPUs no grant holds. */
  CpuSet freeIsolated(int pool) {
    return tree.pool(pool).isolated().difference(exclusive);
  }

  /**
   * Shared milli-CPUs the pool can still grant: its free sharable CPUs minus what is granted shared
   * in its subtree, capped by every ancestor's same amount, so no ancestor is overcommitted.
   */
  long allocatableShared(int pool) {
    long min = 1000L * freeSharable(pool).size() - shared[pool];
    for (int a : tree.pool(pool).ancestors()) {
      min = Math.min(min, 1000L * freeSharable(a).size() - shared[a]);
    }
    return min;
  }

  /**
   * Whether containers use the pool's own shared CPUs (shared-only or exclusive + shared grants of
   * the pool itself, not of its descendants).
   */
  boolean busy(int pool) {
    return sharedUsers[pool] > 0;
  }

  /** How many grants {@link #forEachSharedUser} gives for {@code pool}. */
  int sharedUserCount(int pool) {
    return sharedUsers[pool];
  }

  /**
   * How many of the pool's free sharable CPUs must stay shared: at least one if it is {@link
   * #busy}, enough for the shared milli-CPUs granted in its subtree, and what its children keep
   * (capped by what is free).
   */
  int keptCount(int pool) {
    int k = kept[pool];
    if (k < 0) {
      Pool p = tree.pool(pool);
      k = keptOwn(pool);
      int children = 0;
      for (int c : p.children()) {
        children += keptCount(c);
      }
      k = Math.min(freeSharable(pool).size(), Math.max(k, children));
      kept[pool] = k;
    }
    return k;
  }

  /** What the pool keeps for its own sake: see {@link #keptCount}, without the children. */
  int keptOwn(int pool) {
    int forRequests = (int) ((shared[pool] + 999) / 1000);
    return Math.max(busy(pool) ? 1 : 0, forRequests);
  }

  /**
   * Whether {@code full} exclusive CPUs may be sliced off the pool's sharable CPUs: the pool has as
   * many CPUs beyond those it and its descendants keep ({@link #keptCount}), and every busy
   * ancestor keeps a shared CPU. (Whether the shared milli-CPUs granted in the pool and above still
   * fit is {@link #allocatableShared}'s business.)
   */
  boolean canSlice(int pool, int full) {
    if (freeSharable(pool).size() - keptCount(pool) < full) {
      return false;
    }
    for (int a : tree.pool(pool).ancestors()) {
      if (busy(a) && freeSharable(a).size() - full < 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether slicing {@code taken} off the pool's sharable CPUs leaves the pool and each of its
   * descendants what it keeps for its own sake ({@link #keptOwn}).
   */
  boolean leavesEnough(int pool, CpuSet taken) {
    Pool p = tree.pool(pool);
    if (freeSharable(pool).difference(taken).size() < keptOwn(pool)) {
      return false;
    }
    for (int d : p.descendants()) {
      if (keptOwn(d) > 0 && freeSharable(d).difference(taken).size() < keptOwn(d)) {
        return false;
      }
    }
    return true;
  }

  /** Reserved milli-CPUs the pool can still grant, capped by its ancestors; -1 if it has none. */
  long allocatableReserved(int pool) {
    Pool p = tree.pool(pool);
    if (p.reserved().isEmpty()) {
      return -1;
    }
    long min = 1000L * p.reserved().size() - reserved[pool];
    for (int a : p.ancestors()) {
      min = Math.min(min, 1000L * tree.pool(a).reserved().size() - reserved[a]);
    }
    return min;
  }

  /** Shared milli-CPUs granted in the pool's subtree. */
  long grantedShared(int pool) {
    return shared[pool];
  }

  /** Reserved milli-CPUs granted in the pool's subtree. */
  long grantedReserved(int pool) {
    return reserved[pool];
  }

  /** The number of grants of {@code kind} whose CPUs come from the pool. */
  int colocated(int pool, CpuKind kind) {
    return kind == CpuKind.RESERVED ? reservedCount[pool] : normalCount[pool];
  }

  /** Memory of the pool not granted from it. */
  Memory freeMemory(int pool) {
    return tree.pool(pool).memory().minus(granted[pool]);
  }

  /** Memory that grants of the pool's ancestors may take from it. */
  Memory extraMemory(int pool) {
    return extra[pool];
  }

  /**
   * Why {@code g} cannot be recorded as it is (cri-resmgr's {@code supply.Reserve}), or empty if it
   * can: its CPUs must still be free in its pool, its shared or reserved part must fit, and its
   * memory must be free in its memory pool.
   */
  Optional<String> whyNot(Grant g) {
    Pool p = tree.pool(g.pool());
    if (g.kind() == CpuKind.NORMAL) {
      CpuSet iso = g.exclusive().intersection(p.isolated());
      CpuSet sliced = g.exclusive().difference(iso);
      if (!freeIsolated(p.id()).containsAll(iso) || !freeSharable(p.id()).containsAll(sliced)) {
        return Optional.of("exclusive CPUs " + g.exclusive() + " are not free in " + p.name());
      }
      if (allocatableShared(p.id()) < 1000L * sliced.size() + g.fractionMilli()) {
        return Optional.of("not enough shared CPU in " + p.name());
      }
    } else if (g.kind() == CpuKind.RESERVED) {
      if (p.reserved().isEmpty() || !g.exclusive().isEmpty()) {
        return Optional.of(p.name() + " has no reserved CPUs");
      }
      if (g.fractionMilli() > 0 && allocatableReserved(p.id()) < g.fractionMilli()) {
        return Optional.of("not enough reserved CPU in " + p.name());
      }
    }
    Memory free = freeMemory(g.memoryPool());
    for (MemoryType t : MemoryType.values()) {
      if (free.get(t) < g.memory().get(t)) {
        return Optional.of("not enough " + t + " in " + tree.pool(g.memoryPool()).name());
      }
    }
    CpuSet memset = tree.pool(g.memoryPool()).memset();
    if (!memset.containsAll(g.memset()) || g.memset().isEmpty() != memset.isEmpty()) {
      return Optional.of(
          "memory nodes " + g.memset() + " are not those of " + tree.pool(g.memoryPool()).name());
    }
    return Optional.empty();
  }

  /**
   * The policy data: {@code {"allocations": {cacheId: grant, ...}}}, oldest grant first. The
   * allocations are a read-only view of the current (persistent) grants, not a copy: the tree must
   * not be changed, and a later change of this ledger does not show in it.
   */
  ObjectNode policyData() {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.set(GrantJson.ALLOCATIONS, new ObjectNode(JsonNodeFactory.instance, grants.json()));
    return data;
  }
}
