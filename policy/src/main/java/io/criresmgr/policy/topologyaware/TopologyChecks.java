package io.criresmgr.policy.topologyaware;

import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The assumptions the pool tree makes about the hardware (cri-resmgr's {@code checkHWTopology}): no
 * NUMA node spans two sockets or two dies, and NUMA distances are symmetric.
 */
final class TopologyChecks {
  private TopologyChecks() {}

  /**
   * Checks {@code topology}.
   *
   * @throws PolicyException naming what is shared or asymmetric
   */
  static void check(SystemTopology topology) {
    List<Integer> packages = topology.packageIds();
    for (int a : packages) {
      for (int b : packages) {
        if (a < b) {
          requireDisjoint(
              topology.packageNodes(a),
              topology.packageNodes(b),
              "sockets #" + a + ", #" + b + " share NUMA node(s) #");
        }
      }
      for (int d1 : topology.dieIds(a)) {
        for (int d2 : topology.dieIds(a)) {
          if (d1 < d2) {
            requireDisjoint(
                topology.dieNodes(a, d1),
                topology.dieNodes(a, d2),
                "socket #" + a + ", dies #" + d1 + ", #" + d2 + " share NUMA node(s) #");
          }
        }
      }
    }
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

  private static void requireDisjoint(List<Integer> a, List<Integer> b, String what) {
    Set<Integer> shared = new HashSet<>(a);
    shared.retainAll(b);
    if (!shared.isEmpty()) {
      throw new PolicyException(
          "topology-aware: unhandled HW topology: "
              + what
              + shared.stream().sorted().map(String::valueOf).reduce((x, y) -> x + ",#" + y).get()
              + "; a NUMA node must belong to one socket and one die");
    }
  }
}
