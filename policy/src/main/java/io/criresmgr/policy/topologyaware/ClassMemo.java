package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.CpuClassNames;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU class of each container's exclusive CPUs ({@link CpuClassPlan}), remembered per
 * container: the plan is made again whenever an exclusive grant comes or goes, and looking up the
 * {@code cpu-class} annotation of every exclusive container each time was most of its cost. The
 * class depends only on the pod's annotations, the container's name and its QoS class, so a
 * remembered class holds while the cache has the same {@link Pod} object (a changed pod is a new
 * object) and the container's name and QoS class are equal. Not thread-safe: one per policy, used
 * on the pipeline thread.
 */
final class ClassMemo {
  private record Known(Pod pod, String name, QosClass qos, String cpuClass) {}

  private final Map<String, Known> byCacheId = new HashMap<>();

  /**
   * The class of {@code container} of {@code pod} ({@link CpuClassPlan#exclusiveClassOrDefault}):
   * remembered, else computed; {@code grants}, the number of grants, bounds what is remembered.
   */
  @SuppressWarnings(
      "ReferenceEquality") // identity is the point: an unchanged pod is the same object
  String cpuClass(Pod pod, Container container, int grants, CpuClassNames names) {
    Known k = byCacheId.get(container.cacheId());
    if (k != null
        && k.pod() == pod
        && k.name().equals(container.name())
        && k.qos() == container.qosClass()) {
      return k.cpuClass();
    }
    if (byCacheId.size() > 2 * grants + 64) {
      byCacheId.clear(); // released containers: forget them all now and then
    }
    String cpuClass = CpuClassPlan.exclusiveClassOrDefault(pod, container, names);
    byCacheId.put(
        container.cacheId(), new Known(pod, container.name(), container.qosClass(), cpuClass));
    return cpuClass;
  }

  /** How many containers are remembered (for tests). */
  int size() {
    return byCacheId.size();
  }
}
