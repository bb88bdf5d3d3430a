package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A balloons policy on a fake node: pods with annotations, allocation, release, the balloons. */
final class PolicyHarness {
  static final String NAME = "balloons";

  final SystemTopology topology;
  final BalloonsOptions options;
  final BalloonsPolicy policy;
  final CpuSet allowed;
  final FakeNode node = new FakeNode(NAME);

  PolicyHarness(SystemTopology topology, String yaml, CpuSet allowed, CpuSet reserved)
      throws Exception {
    this.topology = topology;
    this.options = BalloonsOptionsTest.parse(yaml);
    this.allowed = allowed;
    this.policy = new BalloonsPolicy(NAME, topology, options, allowed, reserved);
  }

  PolicyHarness(SystemTopology topology, String yaml, CpuSet reserved) throws Exception {
    this(topology, yaml, topology.onlineCpus(), reserved);
  }

  /** Allocates container {@code name} of pod {@code pod} (created with {@code annotations}). */
  Decisions allocate(String pod, String name, long milli, Map<String, String> annotations) {
    if (node.cache().pod("sandbox-" + pod).isEmpty()) {
      node.cache()
          .putPod(
              new Pod(
                  "sandbox-" + pod,
                  "uid-" + pod,
                  pod,
                  "default",
                  Map.of(),
                  annotations,
                  "/kubepods/pod" + pod,
                  QosClass.GUARANTEED,
                  PodResources.NONE,
                  true));
    }
    Container c = node.create(pod, name, FakeNode.cpu(milli, milli));
    Decisions d = policy.allocate(c, node.cache());
    node.apply(d);
    return d;
  }

  /** Releases container {@code name} of pod {@code pod}. */
  Decisions release(String pod, String name) {
    Decisions d = policy.release(node.container(id(pod, name)), node.cache());
    node.apply(d);
    return d;
  }

  /** The current assignment of container {@code name} of pod {@code pod}. */
  Assignment assignment(String pod, String name) {
    return node.container(id(pod, name)).assignment();
  }

  static String id(String pod, String name) {
    return Container.cacheId("uid-" + pod, name);
  }

  /** The balloons of the policy data. */
  List<Balloon> balloons() {
    return BalloonState.read(node.cache().policyData(NAME).orElseThrow());
  }

  /** The balloons as a set (that cannot resize them). */
  BalloonSet set() {
    Map<String, BalloonType> types =
        options.effectiveTypes().stream()
            .collect(Collectors.toMap(BalloonType::name, t -> t, (a, b) -> a));
    return new BalloonSet(balloons(), types, Map.of(), allowed);
  }

  /** The balloon named {@code name}, e.g. {@code dynamic[0]}. */
  Balloon balloon(String name) {
    return balloons().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
  }
}
