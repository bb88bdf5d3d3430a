package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Map;
import java.util.stream.Collectors;

/** A balloons policy on a {@link BalloonsNode}: pods with annotations, allocation, release. */
final class PolicyHarness extends BalloonsNode {
  final SystemTopology topology;
  final BalloonsOptions options;
  final BalloonsPolicy policy;
  final CpuSet allowed;
  final CpuSet reserved;

  PolicyHarness(SystemTopology topology, String yaml, CpuSet allowed, CpuSet reserved)
      throws Exception {
    this.topology = topology;
    this.options = BalloonsOptionsTest.parse(yaml);
    this.allowed = allowed;
    this.reserved = reserved;
    this.policy = new BalloonsPolicy(NAME, topology, options, allowed, reserved);
  }

  PolicyHarness(SystemTopology topology, String yaml, CpuSet reserved) throws Exception {
    this(topology, yaml, topology.onlineCpus(), reserved);
  }

  /** Allocates container {@code name} of pod {@code pod} (created with {@code annotations}). */
  Decisions allocate(String pod, String name, long milli, Map<String, String> annotations) {
    pod("default", pod, annotations);
    return allocate(policy, "default", pod, name, milli);
  }

  /** Releases container {@code name} of pod {@code pod}. */
  Decisions release(String pod, String name) {
    return apply(policy.release(node.container(id(pod, name)), node.cache()));
  }

  /** The balloons as a set (that cannot resize them). */
  BalloonSet set() {
    Map<String, BalloonType> types =
        options.effectiveTypes().stream()
            .collect(Collectors.toMap(BalloonType::name, t -> t, (a, b) -> a));
    return new BalloonSet(balloons(), types, Map.of(), allowed, reserved);
  }

  /** The balloon named {@code name}, e.g. {@code dynamic[0]}. */
  Balloon balloon(String name) {
    return balloons().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
  }
}
