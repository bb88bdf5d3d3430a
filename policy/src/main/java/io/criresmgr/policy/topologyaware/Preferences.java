package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.Set;

/**
 * Derives a container's {@link CpuRequest} and {@link MemoryRequest} from its resources, QoS class,
 * effective annotations and the policy options.
 */
final class Preferences {
  private Preferences() {}

  /**
   * The CPU request.
   *
   * @throws io.criresmgr.policy.PolicyException naming the annotation and the accepted values if
   *     one of ours is malformed
   */
  static CpuRequest cpu(Container container, Pod pod, TopologyAwareOptions options) {
    throw new UnsupportedOperationException("not yet: " + container + pod + options);
  }

  /**
   * The memory request; {@code present} are the memory types the node has.
   *
   * @throws io.criresmgr.policy.PolicyException naming the annotation and the accepted values if
   *     one of ours is malformed
   */
  static MemoryRequest memory(
      Container container, Pod pod, TopologyAwareOptions options, Set<MemoryType> present) {
    throw new UnsupportedOperationException("not yet: " + container + pod + options + present);
  }
}
