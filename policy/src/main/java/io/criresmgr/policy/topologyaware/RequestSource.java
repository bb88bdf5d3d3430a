package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.affinity.Affinities;
import io.criresmgr.cache.affinity.Affinity;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.List;
import java.util.Set;

/**
 * Derives what a container asks for: its CPU and memory requests and its explicit affinities. The
 * policy uses {@link #of(TopologyAwareOptions, Set)}; tests may substitute their own.
 */
interface RequestSource {
  /** The CPU request of {@code container}. */
  CpuRequest cpu(Container container, Pod pod);

  /** The memory request of {@code container}. */
  MemoryRequest memory(Container container, Pod pod);

  /** The explicit affinities of {@code container} (anti-affinities with negative weights). */
  List<Affinity> affinities(Container container, Pod pod);

  /** The requests of {@link Preferences} and the affinities of {@link Affinities}. */
  static RequestSource of(TopologyAwareOptions options, Set<MemoryType> presentTypes) {
    return new RequestSource() {
      @Override
      public CpuRequest cpu(Container container, Pod pod) {
        return Preferences.cpu(container, pod, options);
      }

      @Override
      public MemoryRequest memory(Container container, Pod pod) {
        return Preferences.memory(container, pod, options, presentTypes);
      }

      @Override
      public List<Affinity> affinities(Container container, Pod pod) {
        try {
          return Affinities.of(container, pod);
        } catch (IllegalArgumentException e) {
          throw new PolicyException(
              "topology-aware: "
                  + ContainerRequest.prettyName(pod, container)
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
    };
  }
}
