package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.TopologyHint;
import java.util.List;

/**
 * How close a pool is to the devices of a container (cri-resmgr's hint scores; docs/policy/
 * topology-aware.md, "Device topology hints"), and whether the container uses its hints at all
 * ({@code topologyhints}) or only takes pools close to every device ({@code strict.topologyhints}).
 *
 * <p>A hint with CPUs (the device's {@code local_cpulist}) scores the share of them in the pool; a
 * hint with only a NUMA node scores 1 in a leaf pool with that node, 0.9 in an inner pool with it
 * and 0.81 in the root. A pool's score is the product of its hints' scores.
 */
final class DeviceHintScores {
  /** Bool annotation: use the container's device hints (default true). */
  static final String USE = "topologyhints";

  /** Bool annotation: refuse the container unless a pool close to every device has room. */
  static final String STRICT = "strict.topologyhints";

  static final double OVERFIT_PENALTY = 0.9;

  private DeviceHintScores() {}

  /** What a container does with its hints. */
  enum Mode {
    IGNORE,
    PREFER,
    STRICT
  }

  /**
   * The container's mode by its annotations.
   *
   * @throws io.criresmgr.policy.PolicyException if either annotation is not a boolean
   */
  static Mode mode(Pod pod, Container c) {
    boolean use = Annotations.bool(pod, c.name(), USE).orElse(true);
    boolean strict = Annotations.bool(pod, c.name(), STRICT).orElse(false);
    if (!use || c.topologyHints().isEmpty()) {
      return Mode.IGNORE;
    }
    return strict ? Mode.STRICT : Mode.PREFER;
  }

  /** The hints the pool selection uses: none when the container ignores them. */
  static List<TopologyHint> effective(ContainerRequest r) {
    return mode(r.pod(), r.container()) == Mode.IGNORE ? List.of() : r.container().topologyHints();
  }

  /**
   * As {@link #score(Pool, TopologyHint)}, but an L3 cache pool (our own level, below the ones
   * cri-resmgr scored) lying within the device's CPUs scores as the pool it splits: it is as close
   * to the device, and the deeper pool then wins, so a container next to a node-wide device stays
   * within one L3 cache.
   */
  static double score(PoolTree tree, Pool pool, TopologyHint hint) {
    if (pool.kind() == PoolKind.L3_CACHE && close(pool, hint) && !pool.isRoot()) {
      return score(tree, tree.pool(pool.parent()), hint);
    }
    return score(pool, hint);
  }

  /** The score of {@code pool} for {@code hint}, 0 to 1. */
  static double score(Pool pool, TopologyHint hint) {
    if (!hint.cpus().isEmpty()) {
      return (double) hint.cpus().intersection(pool.cpus()).size() / hint.cpus().size();
    }
    if (!pool.memset().intersects(hint.numas())) {
      return 0;
    }
    if (pool.isLeaf()) {
      return 1;
    }
    return pool.isRoot() ? OVERFIT_PENALTY * OVERFIT_PENALTY : OVERFIT_PENALTY;
  }

  /**
   * Whether {@code pool} lies within the device's locality: all its CPUs among the hint's, or, for
   * a hint with a NUMA node only, a leaf pool with that node.
   */
  static boolean close(Pool pool, TopologyHint hint) {
    if (!hint.cpus().isEmpty()) {
      return !pool.cpus().isEmpty() && hint.cpus().containsAll(pool.cpus());
    }
    return score(pool, hint) == 1;
  }

  /**
   * The product of the hints' scores and the product of the non-zero ones (cri-resmgr's {@code
   * combineHintScores}); both 0 without hints.
   */
  static double[] combined(PoolTree tree, Pool pool, List<TopologyHint> hints) {
    if (hints.isEmpty()) {
      return new double[] {0, 0};
    }
    double all = 1;
    double nonZero = 0;
    for (TopologyHint h : hints) {
      double s = score(tree, pool, h);
      all *= s;
      if (s != 0) {
        nonZero = nonZero == 0 ? s : nonZero * s;
      }
    }
    return new double[] {all, nonZero};
  }
}
