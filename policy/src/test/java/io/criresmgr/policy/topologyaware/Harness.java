package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyEvent;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The topology-aware policy on a {@link FakeNode}, driven like the reference e2e tests: create pods
 * with containers, delete pods, look at each container's CPUs and memory nodes.
 */
final class Harness {
  static final long MB = 1_000_000;

  final SystemTopology topology;
  final FakeNode node = new FakeNode(TopologyAwarePolicyProvider.NAME);
  final SimpleRequests requests;
  private final boolean real;
  TopologyAwarePolicy policy;
  Clock clock = Clock.systemUTC();
  Decisions last = Decisions.NONE;

  Harness(SystemTopology topology, Map<String, String> available, String reserved) {
    this(topology, available, reserved, TopologyAwareOptions.DEFAULTS);
  }

  Harness(
      SystemTopology topology,
      Map<String, String> available,
      String reserved,
      TopologyAwareOptions options) {
    this(topology, available, reserved, options, false);
  }

  private Harness(
      SystemTopology topology,
      Map<String, String> available,
      String reserved,
      TopologyAwareOptions options,
      boolean real) {
    this.topology = topology;
    this.requests = new SimpleRequests(options);
    this.real = real;
    this.policy = create(topology, available, reserved, options, source(options), clock);
  }

  /** A harness whose policy derives requests from annotations as in production. */
  static Harness withPreferences(
      SystemTopology topology,
      Map<String, String> available,
      String reserved,
      TopologyAwareOptions options) {
    return new Harness(topology, available, reserved, options, true);
  }

  private RequestSource source(TopologyAwareOptions options) {
    if (!real) {
      return requests;
    }
    PoolTree tree = create(topology, Map.of(), "0", options, requests, clock).tree();
    return RequestSource.of(options, tree.presentTypes());
  }

  /** A policy created through the provider with the given parts. */
  static TopologyAwarePolicy create(
      SystemTopology topology,
      Map<String, String> available,
      String reserved,
      TopologyAwareOptions options,
      RequestSource requests,
      Clock clock) {
    return (TopologyAwarePolicy)
        provider(topology, options, requests, clock)
            .create(context(topology, available, reserved), options);
  }

  static TopologyAwarePolicyProvider provider(
      SystemTopology topology, TopologyAwareOptions options, RequestSource requests, Clock clock) {
    Function<Path, SystemTopology> topologies = root -> topology;
    return new TopologyAwarePolicyProvider(
        TopologyAwarePolicyProvider.NAME,
        topologies,
        section -> options,
        (o, types) -> requests,
        clock);
  }

  static PolicyContext context(
      SystemTopology topology, Map<String, String> available, String reserved) {
    return new PolicyContext(
        Path.of("/nonexistent-host-root"),
        topology.onlineCpus(),
        CpuSet.of(List.copyOf(topology.nodes().keySet())),
        available,
        Map.of("CPU", reserved));
  }

  /** Replaces the policy (a restart or an options change), keeping the node. */
  void recreate(Map<String, String> available, String reserved, TopologyAwareOptions options) {
    policy = create(topology, available, reserved, options, source(options), clock);
  }

  /** Creates a Guaranteed pod of {@code count} containers {@code <pod>c<i>}. */
  void guaranteed(String pod, int count, long milli, long memBytes) {
    create("default", pod, count, new Resources(milli, milli, memBytes, memBytes));
  }

  /** Creates a pod of {@code count} containers with these resources, in {@code namespace}. */
  void create(String namespace, String pod, int count, Resources r) {
    create(namespace, pod, count, r, Map.of());
  }

  /** Creates a pod with annotations. */
  void create(
      String namespace, String pod, int count, Resources r, Map<String, String> annotations) {
    Pod p =
        new Pod(
            "sandbox-" + pod,
            "uid-" + pod,
            pod,
            namespace,
            Map.of(),
            annotations,
            "/kubepods/pod" + pod,
            FakeNode.qos(r),
            PodResources.NONE,
            true);
    node.cache().putPod(p);
    for (int i = 0; i < count; i++) {
      Container c = container(p, pod + "c" + i, r, false);
      node.cache().putContainer(c);
      apply(policy.allocate(c, node.cache()));
      node.setState(c.cacheId(), ContainerState.RUNNING);
    }
  }

  /** Creates a pod with annotations and one container {@code <pod>c0} using these devices. */
  void createWithDevices(
      String pod, Resources r, Map<String, String> annotations, List<TopologyHint> hints) {
    Pod p =
        new Pod(
            "sandbox-" + pod,
            "uid-" + pod,
            pod,
            "default",
            Map.of(),
            annotations,
            "/kubepods/pod" + pod,
            FakeNode.qos(r),
            PodResources.NONE,
            true);
    node.cache().putPod(p);
    Container c = container(p, pod + "c0", r, false).withTopologyHints(hints);
    node.cache().putContainer(c);
    try {
      apply(policy.allocate(c, node.cache()));
    } catch (RuntimeException e) {
      node.cache().removeContainer(c.cacheId());
      throw e;
    }
    node.setState(c.cacheId(), ContainerState.RUNNING);
  }

  Container container(Pod p, String name, Resources r, boolean init) {
    return Container.builder()
        .cacheId(Container.cacheId(p.uid(), name))
        .podId(p.id())
        .name(name)
        .namespace(p.namespace())
        .initContainer(init)
        .image("busybox")
        .state(ContainerState.CREATING)
        .resources(r)
        .qosClass(FakeNode.qos(r))
        .seq(node.cache().nextSeq())
        .build();
  }

  void apply(Decisions d) {
    last = d;
    node.apply(d);
  }

  /** Creates one Guaranteed container {@code name} in the existing pod {@code pod}. */
  void guaranteedNamed(String pod, String name, long milli, long memBytes) {
    Resources r = new Resources(milli, milli, memBytes, memBytes);
    Pod p = node.cache().pod("sandbox-" + pod).orElseThrow();
    Container c = container(p, name, r, false);
    node.cache().putContainer(c);
    apply(policy.allocate(c, node.cache()));
    node.setState(c.cacheId(), ContainerState.RUNNING);
  }

  /** Releases and removes every container of {@code pod}. */
  void delete(String pod) {
    for (Container c : node.cache().containers()) {
      if (c.podId().equals("sandbox-" + pod)) {
        Container exited = node.setState(c.cacheId(), ContainerState.EXITED);
        apply(policy.release(exited, node.cache()));
        node.cache().removeContainer(c.cacheId());
      }
    }
    node.cache().removePod("sandbox-" + pod);
  }

  void start(String name) {
    apply(policy.handleEvent(event(PolicyEvent.CONTAINER_STARTED, name, Map.of()), node.cache()));
  }

  PolicyEvent event(String type, String name, Map<String, String> data) {
    return new PolicyEvent(type, byName(name).cacheId(), data);
  }

  void rebalance() {
    apply(policy.rebalance(node.cache()));
  }

  Container byName(String name) {
    return node.cache().containers().stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no container " + name));
  }

  CpuSet cpus(String name) {
    return byName(name).assignment().cpus();
  }

  CpuSet mems(String name) {
    return byName(name).assignment().mems();
  }

  Set<Integer> nodes(String name) {
    return map(cpus(name), c -> topology.cpu(c).nodeId());
  }

  Set<Integer> packages(String name) {
    return map(cpus(name), c -> topology.cpu(c).packageId());
  }

  Set<Integer> cores(String name) {
    return map(cpus(name), c -> topology.cpu(c).packageId() * 1000 + topology.cpu(c).coreId());
  }

  private static Set<Integer> map(CpuSet cpus, Function<Integer, Integer> f) {
    Set<Integer> out = new TreeSet<>();
    cpus.stream().forEach(c -> out.add(f.apply(c)));
    return out;
  }

  /** Asserts the CPU sets of the named containers are pairwise disjoint. */
  void assertDisjoint(String... names) {
    Map<Integer, String> seen = new HashMap<>();
    for (String n : names) {
      cpus(n).stream()
          .forEach(
              c -> {
                String before = seen.put(c, n);
                assertTrue(before == null, "cpu" + c + " in " + before + " and " + n);
              });
    }
  }

  /** Requests and limits: CPU in milli-CPUs, memory in bytes. */
  static Resources resources(long cpuReq, long cpuLim, long memReq, long memLim) {
    return new Resources(cpuReq, cpuLim, memReq, memLim);
  }

  static QosClass qos(Resources r) {
    return FakeNode.qos(r);
  }

  static com.fasterxml.jackson.databind.JsonNode emptyOptions() {
    return JsonNodeFactory.instance.objectNode();
  }
}
