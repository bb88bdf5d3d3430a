package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.affinity.Affinity;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Introspectable;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyEvent;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyMetrics;
import io.criresmgr.policy.ResourceExport;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topology-aware policy (docs/policy/topology-aware.md). Every call restores the grants from
 * the policy data (from memory when the data is the tree this policy produced last, see {@link
 * StateMemo}), changes them in a {@link Session} and returns the changed assignments with the new
 * policy data; the policy itself keeps no state that a decision changes, so a rejected decision
 * leaves no trace and a restarted daemon continues from the cache.
 *
 * <p>Allocating a container that already has a grant (adoption at start-up) keeps the grant;
 * allocating any container of a pod first releases the grants of the pod's other init containers,
 * which kubelet runs one at a time and before the others. Adopting a container after the cache was
 * lost hints the pool it runs in and prefers its CPUs, so it gets its grant back when that is free.
 * Updates re-allocate with the old pool as hint. Rebalancing re-allocates every non-Guaranteed
 * container, as cri-resmgr does.
 */
final class TopologyAwarePolicy implements Policy, Introspectable, PolicyMetrics, ResourceExport {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyAwarePolicy.class);

  private final String name;
  private final PoolTree tree;
  private final TopologyAwareOptions options;
  private final RequestSource requests;
  private final CpuPicker picker;
  private final GrantAllocator allocator;
  private final GrantAssignments assignments;
  private final Clock clock;
  private final StateMemo memo = new StateMemo();
  private final ClassMemo classes = new ClassMemo();
  private final AdoptionHint.SeenCpus seen = new AdoptionHint.SeenCpus();

  TopologyAwarePolicy(
      String name,
      PoolTree tree,
      TopologyAwareOptions options,
      RequestSource requests,
      CpuPicker picker,
      Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.tree = Objects.requireNonNull(tree, "tree");
    this.options = Objects.requireNonNull(options, "options");
    this.requests = Objects.requireNonNull(requests, "requests");
    this.picker = Objects.requireNonNull(picker, "picker");
    this.allocator = new GrantAllocator(picker, options.unlimitedBurstable());
    this.assignments = new GrantAssignments(options, picker);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  PoolTree tree() {
    return tree;
  }

  @Override
  public Decisions allocate(Container container, NodeState node) {
    Session s = open(node);
    if (s.ledger().grant(container.cacheId()).isEmpty()) {
      releaseOtherInitContainers(s, container);
      allocate(s, container, null);
    }
    return close(s, container.cacheId(), false);
  }

  /**
   * As {@link #allocate}, with the smallest pool holding the CPUs and memory nodes it runs on as
   * hint and those CPUs preferred for its exclusive ones.
   */
  @Override
  public Decisions adopt(Container container, Assignment current, NodeState node) {
    Session s = open(node);
    if (s.ledger().grant(container.cacheId()).isEmpty()) {
      releaseOtherInitContainers(s, container);
      String hint = AdoptionHint.pool(tree, current).map(Pool::name).orElse(null);
      allocate(s, container, hint, current.cpus(), seen.exclusiveCandidates(current.cpus()));
    }
    Decisions d = close(s, container.cacheId(), false);
    seen.record(container.cacheId(), current.cpus());
    return d;
  }

  @Override
  public Decisions release(Container container, NodeState node) {
    Session s = open(node);
    s.ledger().remove(container.cacheId());
    Decisions d = close(s, null, false);
    seen.forget(container.cacheId());
    return d;
  }

  @Override
  public Decisions update(Container container, NodeState node) {
    Session s = open(node);
    Optional<Grant> old = s.ledger().remove(container.cacheId());
    allocate(s, container, old.map(g -> tree.pool(g.pool()).name()).orElse(null));
    old.ifPresent(g -> ColdStarts.carryOver(s, g, started(container)));
    return close(s, container.cacheId(), false);
  }

  /**
   * Restores the stored grants now rather than at the first request: a grant that no longer fits
   * (its CPUs went offline, or a damaged cache file gives one CPU to two containers) is
   * reallocated, and every container whose cached assignment differs from its grant is sent its
   * grant at once.
   */
  @Override
  public Decisions start(NodeState node) {
    return close(open(node), null, true);
  }

  @Override
  public Decisions rebalance(NodeState node) {
    return rebalance(open(node));
  }

  /**
   * New options (a reload): the grants are restored into the new pools, and if a running container
   * no longer fits, the options are refused naming it, so the old ones stay in force.
   */
  @Override
  public Decisions reconfigure(NodeState node) {
    Session s = new Session(node, new Ledger(tree), true);
    JsonNode data = node.policyData(name).orElse(MissingNode.getInstance());
    Reconciler.restore(data, s, (session, c, hint) -> allocate(session, c, hint), true);
    ColdStarts.resume(s, clock);
    return rebalance(s);
  }

  private Decisions rebalance(Session s) {
    NodeState node = s.node();
    dropGrantsOfInactiveContainers(s);
    List<Map.Entry<Container, Grant>> movable = new ArrayList<>();
    for (Container c : node.containers()) {
      Optional<Grant> g = s.ledger().grant(c.cacheId());
      if (c.state().isActive() && g.isPresent() && c.qosClass() != QosClass.GUARANTEED) {
        movable.add(Map.entry(c, g.get()));
        s.ledger().remove(c.cacheId());
      }
    }
    movable.forEach(e -> reallocate(s, e.getKey(), e.getValue()));
    ColdStarts.resume(s, clock);
    return close(s, null, true);
  }

  private static void dropGrantsOfInactiveContainers(Session s) {
    for (Grant g : List.copyOf(s.ledger().grants())) {
      if (s.node().container(g.cacheId()).filter(c -> c.state().isActive()).isEmpty()) {
        LOG.info("rebalance: dropping the grant of inactive container {}", g.cacheId());
        s.ledger().remove(g.cacheId());
      }
    }
  }

  private void reallocate(Session s, Container c, Grant old) {
    try {
      allocate(s, c, null);
      ColdStarts.carryOver(s, old, started(c));
    } catch (PolicyException e) {
      Optional<String> why = s.ledger().whyNot(old);
      if (why.isEmpty()) {
        s.ledger().add(old);
      }
      LOG.warn(
          "rebalance: cannot reallocate {} ({}), {}",
          s.name(c.cacheId()),
          e.getMessage(),
          why.isEmpty() ? "it keeps its grant" : "its grant is dropped: " + why.get());
    }
  }

  private static boolean started(Container c) {
    return c.state() == ContainerState.RUNNING;
  }

  @Override
  public Decisions handleEvent(PolicyEvent event, NodeState node) {
    if (event.type().equals(PolicyEvent.CONTAINER_STARTED)) {
      Session s = open(node);
      return ColdStarts.started(s, event.cacheId(), clock) ? close(s, null, false) : Decisions.NONE;
    }
    if (event.type().equals(ColdStarts.DONE)) {
      Session s = open(node);
      return ColdStarts.done(s, event) ? close(s, event.cacheId(), false) : Decisions.NONE;
    }
    return Decisions.NONE;
  }

  /** Allocates for {@code c} into the session. */
  private void allocate(Session s, Container c, @Nullable String hint) {
    allocate(s, c, hint, CpuSet.EMPTY, CpuSet.EMPTY);
  }

  /**
   * Allocates for {@code c} into the session, taking {@code preferred} CPUs first if free, and of
   * those the {@code likelyOwn} ones first.
   */
  private void allocate(
      Session s, Container c, @Nullable String hint, CpuSet preferred, CpuSet likelyOwn) {
    Pod pod =
        s.node()
            .pod(c.podId())
            .orElseThrow(
                () ->
                    new PolicyException(
                        "topology-aware: the pod of " + c.cacheId() + " is not known"));
    ContainerRequest r =
        new ContainerRequest(c, pod, requests.cpu(c, pod), requests.memory(c, pod));
    CpuClassPlan.exclusiveClass(pod, c, options.cpuClasses()); // refuses a misplaced annotation
    double[] affinity = new double[tree.size()];
    if (r.cpu().kind() == CpuKind.NORMAL) {
      List<Affinity> explicit = requests.affinities(c, pod);
      affinity = PoolAffinities.scores(r, explicit, s.node(), s.ledger(), options);
    }
    GrantAllocator a =
        preferred.isEmpty()
            ? allocator
            : new GrantAllocator(
                picker.preferring(preferred).preferring(likelyOwn), options.unlimitedBurstable());
    a.allocate(s.ledger(), r, affinity, hint, s::name, why -> s.explain(c.cacheId(), why));
  }

  private void releaseOtherInitContainers(Session s, Container c) {
    for (Container other : s.node().containers()) {
      if (other.initContainer()
          && other.podId().equals(c.podId())
          && !other.cacheId().equals(c.cacheId())
          && s.ledger().remove(other.cacheId()).isPresent()) {
        LOG.debug("released init container {} before {}", s.name(other.cacheId()), c.name());
      }
    }
  }

  /** A session on the current state: remembered, or restored from the policy data. */
  Session open(NodeState node) {
    JsonNode data = node.policyData(name).orElse(MissingNode.getInstance());
    StateMemo.Entry known = memo.get(data);
    if (known != null) {
      Session s = new Session(node, known.ledger().copy(), known.restored());
      if (known.restored()) {
        ColdStarts.resume(s, clock); // the timers of a restored state were not asked for yet
      }
      return s;
    }
    Session s = new Session(node, new Ledger(tree), true);
    Reconciler.restore(data, s, (session, c, hint) -> allocate(session, c, hint));
    ColdStarts.resume(s, clock);
    return s;
  }

  private Decisions close(Session s, @Nullable String subject, boolean all) {
    Decisions d =
        s.finish(
            subject,
            all,
            assignments,
            s.ledger()
                .cpuClasses(
                    () -> CpuClassPlan.of(s.ledger(), s.node(), options.cpuClasses(), classes)));
    d.policyData().ifPresent(data -> memo.put(data, s.ledger(), false));
    return d;
  }

  /**
   * The current state for read-only views (introspection, gauges, exported data: all on the
   * pipeline thread); a restored one is remembered, so it logs once. The remembered state of the
   * last decision is returned as it is, without the copy a decision works on: the views only read
   * it.
   */
  private Ledger view(NodeState node) {
    JsonNode data = node.policyData(name).orElse(MissingNode.getInstance());
    StateMemo.Entry known = memo.get(data);
    if (known != null && !known.restored()) {
      return known.ledger();
    }
    Session s = open(node);
    if (s.fresh() && memo.get(data) == null) {
      memo.put(data, s.ledger().copy(), true);
    }
    return s.ledger();
  }

  @Override
  public JsonNode introspect(NodeState node) {
    Ledger ledger = view(node);
    ObjectNode out = (ObjectNode) PolicyView.introspect(ledger, options);
    ObjectNode classes = out.putObject("cpuClasses");
    CpuClassPlan.of(ledger, node, options.cpuClasses())
        .forEach((name, cpus) -> classes.put(name, cpus.toString()));
    return out;
  }

  @Override
  public List<Map<String, String>> exportedResources(List<Container> containers, NodeState node) {
    Ledger ledger = view(node);
    // sized once: a step may ask for the hundreds of containers a decision re-assigned
    List<Map<String, String>> data = new ArrayList<>(containers.size());
    // The containers of one pool mostly share their data: computed once per distinct grant shape,
    // found without a key object per container.
    GrantShapes<ExportedData.Shape, Map<String, String>> byShape = ExportedData.shapes();
    for (Container c : containers) {
      Grant g = ledger.grantOrNull(c.cacheId());
      if (g != null) {
        Map<String, String> vars = byShape.get(g);
        if (vars == null) {
          vars = ExportedData.of(g, ledger);
          byShape.put(g, vars);
        }
        data.add(vars);
      } else {
        data.add(Map.of());
      }
    }
    return data;
  }

  @Override
  public List<Gauge> collect(NodeState node) {
    return PolicyView.gauges(view(node), name);
  }
}
