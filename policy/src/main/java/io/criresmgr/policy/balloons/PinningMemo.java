package io.criresmgr.policy.balloons;

import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether a pod's annotations mention any pinning override ({@link PinningOverrides#mentionsAny}),
 * remembered per pod object: every decision asks it for every container in a balloon, and a pod's
 * annotations do not change while the cache holds the same {@link Pod} (a changed pod is a new
 * object, so it is asked again). Not thread-safe: one per policy, used on the pipeline thread.
 */
final class PinningMemo {
  private record Known(Pod pod, boolean mentions) {}

  private final Map<String, Known> byPodId = new HashMap<>();

  /** {@link PinningOverrides#mentionsAny} of {@code pod}, remembered for this very object. */
  @SuppressWarnings(
      "ReferenceEquality") // identity is the point: an unchanged pod is the same object
  boolean mentionsAny(Pod pod, NodeState node) {
    Known k = byPodId.get(pod.id());
    if (k != null && k.pod() == pod) {
      return k.mentions();
    }
    if (byPodId.size() > 2 * node.pods().size() + 64) {
      byPodId.clear(); // removed pods: forget them all now and then
    }
    boolean mentions = PinningOverrides.mentionsAny(pod);
    byPodId.put(pod.id(), new Known(pod, mentions));
    return mentions;
  }

  /** How many pods are remembered (for tests). */
  int size() {
    return byPodId.size();
  }
}
