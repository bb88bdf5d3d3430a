package io.criresmgr.cache.affinity;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a container's affinities from its pod's annotations: {@code
 * cri-resource-manager.intel.com/affinity} and {@code .../anti-affinity} (also {@code
 * resource-policy.nri.io/affinity} and {@code .../anti-affinity}), in the simple ({@code c3: [c1,
 * c2]}) and the full syntax, and scores peers against them.
 *
 * <p>Simple syntax: {@code c3: [c1, c2]} gives c3 an affinity (weight 1, anti: -1) to containers of
 * the same pod named c1 or c2, and c1 and c2 each one to c3 (the relation is symmetric). Full
 * syntax: {@code c3: [{scope: expr, match: expr, weight: w}]}; the scope defaults to the pod
 * ({@link #podScope}), the weight to 1 (0 counts as not given), anti-affinities negate it, and it
 * is clamped to [-1000, 1000]. When both spellings of an annotation are set, the cri-resmgr one
 * wins.
 */
public final class Affinities {
  /** The cri-resmgr affinity annotation. */
  public static final String AFFINITY = "cri-resource-manager.intel.com/affinity";

  /** The cri-resmgr anti-affinity annotation. */
  public static final String ANTI_AFFINITY = "cri-resource-manager.intel.com/anti-affinity";

  /** The nri-plugins spelling of {@link #AFFINITY}. */
  public static final String NRI_AFFINITY = "resource-policy.nri.io/affinity";

  /** The nri-plugins spelling of {@link #ANTI_AFFINITY}. */
  public static final String NRI_ANTI_AFFINITY = "resource-policy.nri.io/anti-affinity";

  private Affinities() {}

  /**
   * The explicit affinities of {@code container} (anti-affinities with negated weights).
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong if it is malformed
   *     (also when the fault is in another container's entry)
   */
  public static List<Affinity> of(Container container, Pod pod) {
    List<Affinity> out = new ArrayList<>();
    out.addAll(read(pod, container.name(), AFFINITY, NRI_AFFINITY, 1));
    out.addAll(read(pod, container.name(), ANTI_AFFINITY, NRI_ANTI_AFFINITY, -1));
    return List.copyOf(out);
  }

  private static List<Affinity> read(Pod pod, String name, String cri, String nri, int sign) {
    String key = pod.annotations().containsKey(cri) ? cri : nri;
    String value = pod.annotations().get(key);
    if (value == null) {
      return List.of();
    }
    return new AffinityParser(key, podScope(pod), sign).parse(value).getOrDefault(name, List.of());
  }

  /** The scope of the containers of {@code pod}: {@code pod/id Equals <sandbox id>}. */
  public static Expression podScope(Pod pod) {
    return new Expression("pod/id", Expression.Operator.EQUALS, List.of(pod.id()));
  }

  /**
   * The weight {@code peer} (of {@code peerPod}) contributes to {@code self} through {@code
   * affinity}: its weight if the peer is in scope and matches, else 0; 0 for {@code self} itself
   * (same cache id).
   */
  public static int score(Affinity affinity, Container peer, Pod peerPod, Container self) {
    if (peer.cacheId().equals(self.cacheId())
        || !affinity.scope().evaluate(peer, peerPod)
        || !affinity.match().evaluate(peer, peerPod)) {
      return 0;
    }
    return affinity.weight();
  }

  /** The sum of {@link #score(Affinity, Container, Pod, Container)} over {@code affinities}. */
  public static int score(List<Affinity> affinities, Container peer, Pod peerPod, Container self) {
    int sum = 0;
    for (Affinity a : affinities) {
      sum += score(a, peer, peerPod, self);
    }
    return sum;
  }
}
