package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Turns balloons into container assignments: every container of a balloon gets the balloon's CPUs
 * and CPU shares from its own request (if {@code PinCPU}), and the NUMA nodes of those CPUs (if the
 * type's {@code PinMemory}).
 */
final class BalloonAssignments {
  /** The cgroup v1 minimum of CPU shares. */
  static final long MIN_SHARES = 2;

  /** The cgroup v1 maximum of CPU shares. */
  static final long MAX_SHARES = 262144;

  private final SystemTopology topology;
  private final BalloonsOptions options;
  private final Map<String, BalloonType> types;

  BalloonAssignments(
      SystemTopology topology, BalloonsOptions options, Map<String, BalloonType> types) {
    this.topology = topology;
    this.options = options;
    this.types = Map.copyOf(types);
  }

  /**
   * The decisions for {@code set}: the assignment of {@code subject} first (if it is in a balloon),
   * then every other active container whose assignment changed, in creation order, and the new
   * policy data.
   */
  Decisions decide(BalloonSet set, NodeState node, @Nullable String subject) {
    Map<String, Assignment> wanted = new HashMap<>();
    for (Balloon b : set.balloons()) {
      b.containers().forEach((id, milli) -> wanted.put(id, of(b, milli)));
    }
    List<Decisions.Update> updates = new ArrayList<>();
    if (subject != null && wanted.containsKey(subject)) {
      updates.add(new Decisions.Update(subject, wanted.get(subject)));
    }
    for (Container c : node.containers()) {
      Optional<Assignment> a = Optional.ofNullable(wanted.get(c.cacheId()));
      if (!c.cacheId().equals(subject)
          && c.state().isActive()
          && a.isPresent()
          && !a.get().equals(c.assignment())) {
        updates.add(new Decisions.Update(c.cacheId(), a.get()));
      }
    }
    return Decisions.of(updates).withPolicyData(BalloonState.write(set.balloons()));
  }

  /** The assignment of a container of {@code b} requesting {@code milli}. */
  Assignment of(Balloon b, long milli) {
    Assignment a = Assignment.NONE;
    if (options.pinCpu()) {
      a = a.withCpus(b.cpus()).withCpuShares(milliCpuToShares(milli));
    }
    BalloonType t = types.get(b.type());
    if (t != null && options.pinMemory(t) && !b.cpus().isEmpty()) {
      a = a.withMems(CpuSet.of(topology.cpuNodes(b.cpus())));
    }
    return a;
  }

  /** Kubernetes' conversion: {@code milli * 1024 / 1000}, at least 2, at most 262144. */
  static long milliCpuToShares(long milli) {
    long shares = milli * 1024 / 1000;
    return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
  }
}
