package io.criresmgr.cache.affinity;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.List;

/**
 * Reads a container's affinities from its pod's annotations: {@code
 * cri-resource-manager.intel.com/affinity} and {@code .../anti-affinity} (also {@code
 * resource-policy.nri.io/affinity} and {@code .../anti-affinity}), in the simple ({@code c3: [c1,
 * c2]}) and the full syntax.
 */
public final class Affinities {
  private Affinities() {}

  /**
   * The explicit affinities of {@code container} (anti-affinities with negated weights).
   *
   * @throws IllegalArgumentException naming the annotation and what is wrong if it is malformed
   */
  public static List<Affinity> of(Container container, Pod pod) {
    throw new UnsupportedOperationException("not yet: " + container + pod);
  }
}
