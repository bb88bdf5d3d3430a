package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The balloons policy (reference §4.5): containers go into balloons of their type, which inflate
 * and deflate with the sum of their containers' CPU requests. The balloons are kept in the policy
 * data ({@link BalloonState}); each call restores them, changes them and returns the changed
 * assignments with the new data, so a rejected decision leaves no trace. Without policy data the
 * state starts as built at creation: {@code reserved[0]} on the reserved CPUs, {@code default[0]}
 * on the reserved CPUs too unless its type sets {@code MinCPUs} or {@code MaxCPUs}, and {@code
 * MinBalloons} instances of every type, high-priority types first.
 */
public final class BalloonsPolicy implements Policy {
  private static final Logger LOG = LoggerFactory.getLogger(BalloonsPolicy.class);

  private final String name;
  private final BalloonsOptions options;
  private final BalloonTypeChooser chooser;
  private final Map<String, BalloonType> types = new LinkedHashMap<>();
  private final Map<String, CpuTreeAllocator> allocators = new LinkedHashMap<>();
  private final CpuSet allowed;
  private final BalloonAssignments assignments;
  private final List<Balloon> initial;

  /**
   * A policy over {@code allowed} CPUs of {@code topology}, {@code reserved} among them.
   *
   * @throws PolicyException if the {@code MinBalloons} instances do not fit
   */
  public BalloonsPolicy(
      String name,
      SystemTopology topology,
      BalloonsOptions options,
      CpuSet allowed,
      CpuSet reserved) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
    this.chooser = new BalloonTypeChooser(options);
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    CpuTree tree = CpuTree.of(topology);
    CpuAllocator cpuAllocator = new CpuAllocator(topology);
    for (BalloonType t : options.effectiveTypes()) {
      types.put(t.name(), t);
      CpuTreeOptions o =
          new CpuTreeOptions(
              options.allocatorTopologyBalancing(t),
              options.preferSpreadOnPhysicalCores(t),
              t.allocatorPriority());
      allocators.put(t.name(), new CpuTreeAllocator(tree, cpuAllocator, o));
    }
    this.assignments = new BalloonAssignments(topology, options, types);
    this.initial = initialBalloons(reserved);
    LOG.info("{} policy: available CPUs {}, balloons {}", name, allowed, initial);
  }

  private List<Balloon> initialBalloons(CpuSet reserved) {
    BalloonSet set = newSet(List.of());
    set.add(Balloon.empty(BalloonType.RESERVED, 0, reserved, true));
    BalloonType dflt = types.get(BalloonType.DEFAULT);
    boolean ownCpus = dflt.minCpus() > 0 || dflt.maxCpus() > 0;
    if (!ownCpus) {
      set.add(Balloon.empty(BalloonType.DEFAULT, 0, reserved, true));
    }
    List<BalloonType> byPriority =
        types.values().stream()
            .filter(t -> !t.isReserved() && (ownCpus || !t.isDefault()))
            .sorted(Comparator.comparing(BalloonType::allocatorPriority))
            .toList();
    for (BalloonType t : byPriority) {
      for (int i = 0; i < t.minBalloons(); i++) {
        if (set.free().size() < t.minCpus()) {
          throw new PolicyException(
              String.format(
                  "balloons: cannot create MinBalloons %d of balloon type \"%s\" with MinCPUs %d"
                      + " each: only %d CPUs free (%s)",
                  t.minBalloons(), t.name(), t.minCpus(), set.free().size(), set.free()));
        }
        set.create(t, 0);
      }
    }
    return set.balloons();
  }

  /** The balloons the state starts with. */
  List<Balloon> initialBalloons() {
    return initial;
  }

  @Override
  public Decisions allocate(Container container, NodeState node) {
    BalloonSet set = open(node);
    if (set.holding(container.cacheId()).isEmpty()) {
      place(set, container, node);
    }
    return assignments.decide(set, node, container.cacheId());
  }

  @Override
  public Decisions release(Container container, NodeState node) {
    BalloonSet set = open(node);
    remove(set, container.cacheId());
    return assignments.decide(set, node, null);
  }

  @Override
  public Decisions update(Container container, NodeState node) {
    BalloonSet set = open(node);
    remove(set, container.cacheId());
    place(set, container, node);
    return assignments.decide(set, node, container.cacheId());
  }

  private void place(BalloonSet set, Container c, NodeState node) {
    Pod pod =
        node.pod(c.podId())
            .orElseThrow(
                () -> new PolicyException("balloons: the pod of " + c.cacheId() + " is not known"));
    BalloonType type = chooser.choose(c, pod);
    long milli = c.qosClass() == QosClass.BEST_EFFORT ? 0 : c.resources().cpuRequestMilli();
    Balloon b =
        type.isReserved() || type.isDefault()
            ? set.ofType(type.name()).get(0)
            : FillChain.choose(set, type, c, milli, node::container);
    Balloon placed = set.replaceAndResize(b, b.with(c.cacheId(), milli));
    LOG.debug("{}: {} mCPU into {} (CPUs {})", c.name(), milli, placed.name(), placed.cpus());
  }

  /** Removes {@code cacheId}; deflates its balloon, deletes it if empty and above MinBalloons. */
  private static void remove(BalloonSet set, String cacheId) {
    Optional<Balloon> b = set.holding(cacheId);
    if (b.isEmpty()) {
      return;
    }
    Balloon now = set.replaceAndResize(b.get(), b.get().without(cacheId));
    BalloonType t = set.type(now);
    if (now.containers().isEmpty()
        && !now.fixed()
        && !t.isDefault()
        && set.ofType(t.name()).size() > t.minBalloons()) {
      set.delete(now);
    }
  }

  /**
   * The balloons of the policy data, or the initial ones. Data that does not fit this policy's
   * types and CPUs (another configuration) is rebuilt: the initial balloons, then its containers
   * placed again in creation order; one that no longer fits is left out, with a warning.
   */
  private BalloonSet open(NodeState node) {
    Optional<JsonNode> data = node.policyData(name).filter(d -> !d.isMissingNode() && !d.isNull());
    if (data.isEmpty()) {
      return newSet(initial);
    }
    List<Balloon> stored = BalloonState.read(data.get());
    if (fits(stored)) {
      return newSet(stored);
    }
    LOG.warn("{}: stored balloons do not fit the configuration, placing containers again", name);
    BalloonSet set = newSet(initial);
    for (Container c : node.containers()) {
      if (c.state().isActive()
          && stored.stream().anyMatch(b -> b.containers().containsKey(c.cacheId()))) {
        try {
          place(set, c, node);
        } catch (PolicyException e) {
          LOG.warn("{}: cannot place {} again: {}", name, c.name(), e.getMessage());
        }
      }
    }
    return set;
  }

  /** Whether {@code stored} has known types, the reserved CPUs and disjoint allowed CPUs. */
  private boolean fits(List<Balloon> stored) {
    CpuSet reserved = initial.get(0).cpus();
    CpuSet used = CpuSet.EMPTY;
    for (Balloon b : stored) {
      BalloonType t = types.get(b.type());
      boolean ok =
          t != null
              && (b.fixed() ? b.cpus().equals(reserved) : !b.cpus().intersects(used))
              && allowed.containsAll(b.cpus());
      if (!ok) {
        return false;
      }
      used = b.fixed() ? used : used.union(b.cpus());
    }
    return !used.intersects(reserved) && fixedTypes(stored).equals(fixedTypes(initial));
  }

  private static List<String> fixedTypes(List<Balloon> balloons) {
    return balloons.stream().filter(Balloon::fixed).map(Balloon::type).toList();
  }

  private BalloonSet newSet(List<Balloon> balloons) {
    return new BalloonSet(balloons, types, allocators, allowed);
  }

  /** The options. */
  public BalloonsOptions options() {
    return options;
  }
}
