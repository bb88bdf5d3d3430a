package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.Policy;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** A {@link FakeNode} with pods in namespaces and annotations, as balloons tests need them. */
final class BalloonsNode {
  final FakeNode node = new FakeNode("balloons");

  /** Adds pod {@code pod} in {@code ns} with {@code annotations} unless it exists. */
  void pod(String ns, String pod, Map<String, String> annotations) {
    if (node.cache().pod("sandbox-" + pod).isEmpty()) {
      node.cache()
          .putPod(
              new Pod(
                  "sandbox-" + pod,
                  "uid-" + pod,
                  pod,
                  ns,
                  Map.of(),
                  annotations,
                  "/kubepods/pod" + pod,
                  QosClass.GUARANTEED,
                  PodResources.NONE,
                  true));
    }
  }

  /** Creates container {@code name} of pod {@code pod} in {@code ns}, in state CREATING. */
  Container create(String ns, String pod, String name, long milli, boolean init) {
    pod(ns, pod, Map.of());
    Container d = node.create(pod, name, FakeNode.cpu(milli, milli));
    Container c =
        new Container(
            d.cacheId(),
            d.id(),
            d.podId(),
            d.name(),
            ns,
            init,
            Map.of(),
            Map.of(),
            d.image(),
            d.state(),
            d.requested(),
            d.resources(),
            d.qosClass(),
            d.assignment(),
            Set.of(),
            d.seq());
    node.cache().putContainer(c);
    return c;
  }

  /** Creates and allocates a container, applying the decisions. */
  Decisions allocate(Policy p, String ns, String pod, String name, long milli) {
    return apply(p.allocate(create(ns, pod, name, milli, false), node.cache()));
  }

  /** Applies {@code d} to the cache and returns it. */
  Decisions apply(Decisions d) {
    node.apply(d);
    return d;
  }

  /** The balloons of {@code d}'s policy data as {@code name=cpus[containers] ...}. */
  static String balloons(Decisions d) {
    return BalloonState.read(d.policyData().orElseThrow()).stream()
        .map(b -> b.name() + "=" + b.cpus() + b.containers().keySet())
        .collect(Collectors.joining(" "));
  }
}
