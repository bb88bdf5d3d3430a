package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.CpuSet;
import java.util.Objects;

/**
 * Turns a grant into the container's {@link Assignment} (cri-resmgr's {@code applyGrant}). CPUs:
 * the exclusive ones, plus the pool's current free sharable CPUs when the grant has a shared part;
 * the pool's free sharable CPUs for a shared-only grant (an ancestor's if it has none left); the
 * pool's reserved CPUs for a reserved one; one hyperthread per core of that if asked; nothing
 * unless {@code PinCPU}. CPU shares: those of the shared or reserved fraction (2, the minimum, for
 * a purely exclusive grant). Memory nodes: the grant's, unless {@code PinMemory} is off or memory
 * is preserved.
 */
final class GrantAssignments {
  /** The cgroup v1 minimum of CPU shares, which kubelet also gives containers without request. */
  static final long MIN_SHARES = 2;

  /** The cgroup v1 maximum of CPU shares. */
  static final long MAX_SHARES = 262144;

  private final TopologyAwareOptions options;
  private final CpuPicker picker;

  GrantAssignments(TopologyAwareOptions options, CpuPicker picker) {
    this.options = Objects.requireNonNull(options, "options");
    this.picker = Objects.requireNonNull(picker, "picker");
  }

  /** The assignment of {@code g} in the state {@code ledger}. */
  Assignment of(Grant g, Ledger ledger) {
    Assignment a = Assignment.NONE;
    CpuSet cpus = cpus(g, ledger);
    if (options.pinCpu() && g.kind() != CpuKind.PRESERVE) {
      a = a.withCpus(g.hideHyperthreads() ? picker.oneThreadPerCore(cpus) : cpus);
      a = a.withCpuShares(milliCpuToShares(g.fractionMilli()));
    }
    if (options.pinMemory() && !g.memoryPreserve()) {
      a = a.withMems(g.memset());
    }
    return a;
  }

  /** The CPUs of {@code g} in the state {@code ledger}. */
  static CpuSet cpus(Grant g, Ledger ledger) {
    Pool pool = ledger.tree().pool(g.pool());
    return switch (g.kind()) {
      case RESERVED -> pool.reserved();
      case PRESERVE -> CpuSet.EMPTY;
      case NORMAL -> {
        if (!g.usesSharedCpus()) {
          yield g.exclusive();
        }
        CpuSet shared = shared(pool, ledger);
        yield g.exclusive().isEmpty() ? shared : g.exclusive().union(shared);
      }
    };
  }

  /**
   * The pool's free sharable CPUs; if exclusive grants of an ancestor took them all, the closest
   * ancestor's (cri-resmgr would leave the container an empty cpuset, i.e. every CPU).
   */
  static CpuSet shared(Pool pool, Ledger ledger) {
    CpuSet free = ledger.freeSharable(pool.id());
    for (int i = 0; free.isEmpty() && i < pool.ancestors().size(); i++) {
      free = ledger.freeSharable(pool.ancestors().get(i));
    }
    return free;
  }

  /** Kubernetes' conversion: {@code milli * 1024 / 1000}, at least 2, at most 262144. */
  static long milliCpuToShares(long milli) {
    if (milli == 0) {
      return MIN_SHARES;
    }
    long shares = milli * 1024 / 1000;
    return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
  }
}
