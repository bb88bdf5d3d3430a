package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;

/**
 * The assumption the pool tree makes about the hardware (cri-resmgr's and nri-plugins' {@code
 * checkHWTopology}): NUMA distances are symmetric. Unlike cri-resmgr, a NUMA node may span sockets
 * or dies, as when firmware disables NUMA ({@link PoolTreeBuilder} shares it).
 */
final class TopologyChecks {
  private TopologyChecks() {}

  /**
   * Checks {@code topology}.
   *
   * @throws PolicyException naming the asymmetric distance
   */
  static void check(SystemTopology topology) {
    for (int from : topology.nodes().keySet()) {
      for (int to : topology.nodes().keySet()) {
        int d1 = topology.distance(from, to);
        int d2 = topology.distance(to, from);
        if (d1 != d2) {
          throw new PolicyException(
              "topology-aware: asymmetric NUMA distance (#"
                  + from
                  + ", #"
                  + to
                  + "): "
                  + d1
                  + " != "
                  + d2
                  + "; the policy needs a symmetric node distance matrix");
        }
      }
    }
  }
}
