package io.criresmgr.cache.affinity;

import java.util.Objects;

/**
 * One affinity of a container: peers in {@code scope} matching {@code match} pull it towards them
 * with {@code weight} (negative: push it away).
 *
 * @param scope which containers are considered (default: those of the same pod)
 * @param match which of them count
 * @param weight in [-1000, 1000]
 */
public record Affinity(Expression scope, Expression match, int weight) {
  /** Checks for nulls and clamps the weight. */
  public Affinity {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(match, "match");
    weight = Math.max(-1000, Math.min(1000, weight));
  }
}
