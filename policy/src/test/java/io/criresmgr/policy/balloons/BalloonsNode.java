package io.criresmgr.policy.balloons;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.Policy;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A {@link FakeNode} with pods in namespaces and annotations, as balloons tests need them:
 * creating, allocating and releasing containers, reading their CPUs and the balloons of the policy
 * data.
 */
class BalloonsNode {
  static final String NAME = "balloons";

  final FakeNode node = new FakeNode(NAME);

  /** Adds pod {@code pod} in {@code ns} with {@code annotations} unless it exists. */
  void pod(String ns, String pod, Map<String, String> annotations) {
    pod(ns, pod, Map.of(), annotations);
  }

  /**
   * Adds pod {@code pod} in {@code ns} with {@code labels} and {@code annotations} unless it
   * exists.
   */
  void pod(String ns, String pod, Map<String, String> labels, Map<String, String> annotations) {
    if (node.cache().pod("sandbox-" + pod).isEmpty()) {
      node.cache()
          .putPod(
              new Pod(
                  "sandbox-" + pod,
                  "uid-" + pod,
                  pod,
                  ns,
                  labels,
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
    Container c = d.toBuilder().namespace(ns).initContainer(init).build();
    node.cache().putContainer(c);
    return c;
  }

  /** Creates and allocates a container, applying the decisions. */
  Decisions allocate(Policy p, String ns, String pod, String name, long milli) {
    return apply(p.allocate(create(ns, pod, name, milli, false), node.cache()));
  }

  /** Releases a container as the pipeline does: no longer active, released, then removed. */
  Decisions releaseRemoved(Policy p, String pod, String name) {
    String id = id(pod, name);
    node.setState(id, ContainerState.EXITED);
    Decisions d = apply(p.release(node.container(id), node.cache()));
    node.cache().removeContainer(id);
    return d;
  }

  /** The current assignment of container {@code name} of pod {@code pod}. */
  Assignment assignment(String pod, String name) {
    return node.container(id(pod, name)).assignment();
  }

  /** The CPUs assigned to container {@code name} of pod {@code pod}. */
  CpuSet cpus(String pod, String name) {
    return assignment(pod, name).cpus();
  }

  /** The cache id of container {@code name} of pod {@code pod}. */
  static String id(String pod, String name) {
    return Container.cacheId("uid-" + pod, name);
  }

  /** The balloons of the policy data in the cache. */
  List<Balloon> balloons() {
    return BalloonState.read(node.cache().policyData(NAME).orElseThrow());
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
