package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.affinity.Affinities;
import io.criresmgr.cache.affinity.Affinity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A container's affinity to each pool (cri-resmgr's {@code calculatePoolAffinities} and {@code
 * affinityScore}). The weights of its affinities to other granted containers are summed per pool of
 * their CPUs; a pool's score adds the sums of its ancestors and its subtree, each diluted by 0.75
 * per level of distance. Without explicit affinities, {@code ColocatePods} and {@code
 * ColocateNamespaces} add a weight of 10 to every container of the same pod or namespace.
 */
final class PoolAffinities {
  /** The weight of the implicit colocation affinities. */
  static final int COLOCATION_WEIGHT = 10;

  private static final double Q = 0.75;

  private PoolAffinities() {}

  /** The affinity score of every pool, by id. */
  static double[] scores(
      ContainerRequest r,
      List<Affinity> explicit,
      NodeState node,
      Ledger ledger,
      TopologyAwareOptions options) {
    Map<String, Integer> weights =
        explicit.isEmpty()
            ? implicit(r, node, ledger, options)
            : explicit(r, explicit, node, ledger);
    long[] perPool = new long[ledger.tree().size()];
    for (Map.Entry<String, Integer> e : weights.entrySet()) {
      ledger.grant(e.getKey()).ifPresent(g -> perPool[g.pool()] += e.getValue());
    }
    return fromPoolWeights(ledger.tree(), perPool);
  }

  /** The score of every pool given the summed affinity weight of each pool. */
  static double[] fromPoolWeights(PoolTree tree, long[] perPool) {
    double[] scores = new double[tree.size()];
    boolean any = false;
    for (long w : perPool) {
      any |= w != 0;
    }
    if (any) {
      for (Pool p : tree.pools()) {
        scores[p.id()] = score(tree, p, perPool);
      }
    }
    return scores;
  }

  private static double score(PoolTree tree, Pool p, long[] perPool) {
    double score = 0;
    double q = Q;
    for (int a : p.ancestors()) {
      score += q * perPool[a];
      q *= Q;
    }
    score += perPool[p.id()];
    for (int d : p.descendants()) {
      score += Math.pow(Q, tree.pool(d).depth() - p.depth()) * perPool[d];
    }
    return score;
  }

  private static Map<String, Integer> explicit(
      ContainerRequest r, List<Affinity> affinities, NodeState node, Ledger ledger) {
    Map<String, Integer> weights = new HashMap<>();
    for (Grant g : ledger.grants()) {
      if (g.cacheId().equals(r.container().cacheId())) {
        continue;
      }
      Optional<Container> other = node.container(g.cacheId());
      Optional<Pod> pod = other.flatMap(o -> node.pod(o.podId()));
      if (pod.isEmpty()) {
        continue;
      }
      int w = Affinities.score(affinities, other.get(), pod.get(), r.container());
      if (w != 0) {
        weights.put(g.cacheId(), w);
      }
    }
    return weights;
  }

  private static Map<String, Integer> implicit(
      ContainerRequest r, NodeState node, Ledger ledger, TopologyAwareOptions options) {
    Map<String, Integer> weights = new HashMap<>();
    if (!options.colocatePods() && !options.colocateNamespaces()) {
      return weights;
    }
    Container self = r.container();
    for (Grant g : ledger.grants()) {
      Optional<Container> other = node.container(g.cacheId());
      if (other.isEmpty() || g.cacheId().equals(self.cacheId())) {
        continue;
      }
      int w = 0;
      if (options.colocatePods() && other.get().podId().equals(self.podId())) {
        w += COLOCATION_WEIGHT;
      }
      if (options.colocateNamespaces() && other.get().namespace().equals(self.namespace())) {
        w += COLOCATION_WEIGHT;
      }
      if (w != 0) {
        weights.put(g.cacheId(), w);
      }
    }
    return weights;
  }
}
