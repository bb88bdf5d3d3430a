package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.DataMemo;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Introspectable;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyMetrics;
import io.criresmgr.policy.cpuallocator.CpuAllocator;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The balloons policy (docs/policy/balloons.md): containers go into balloons of their type, which
 * inflate and deflate with the sum of their containers' CPU requests. The balloons are kept in the
 * policy data ({@link BalloonState}); each call restores them, changes them and returns the changed
 * assignments with the new data, so a rejected decision leaves no trace. The initial state is
 * {@code reserved[0]} on the reserved CPUs, {@code default[0]} on the reserved CPUs too unless its
 * type sets {@code MinCPUs} or {@code MaxCPUs}, and {@code MinBalloons} instances of every type,
 * high-priority types first. Data built by another configuration ({@link PlacementKey}) is replaced
 * by the initial state with every active container placed again in creation order.
 */
public final class BalloonsPolicy implements Policy, Introspectable, PolicyMetrics {
  private static final Logger LOG = LoggerFactory.getLogger(BalloonsPolicy.class);

  private final String name;
  private final BalloonsOptions options;
  private final Placer placer;
  private final String key;
  private final Map<String, BalloonType> types = new LinkedHashMap<>();
  private final Map<String, CpuTreeAllocator> allocators = new LinkedHashMap<>();
  private final CpuSet allowed;
  private final CpuSet reserved;
  private final Loads loads;
  private final BalloonAssignments assignments;
  private final List<Balloon> initial;
  private final DataMemo<List<Balloon>> memo = new DataMemo<>();
  private final BalloonState.Containers containersJson = new BalloonState.Containers();
  private final BalloonsView view;

  /**
   * A policy over {@code allowed} CPUs of {@code topology}, {@code reserved} among them, that reads
   * no devices ({@link DeviceCpus#NONE}).
   *
   * @throws PolicyException if the {@code MinBalloons} instances do not fit
   */
  public BalloonsPolicy(
      String name,
      SystemTopology topology,
      BalloonsOptions options,
      CpuSet allowed,
      CpuSet reserved) {
    this(name, topology, options, allowed, reserved, DeviceCpus.NONE);
  }

  /**
   * A policy over {@code allowed} CPUs of {@code topology}, {@code reserved} among them, that finds
   * the CPUs of {@code PreferCloseToDevices} devices with {@code deviceCpus}.
   *
   * @throws PolicyException if the {@code MinBalloons} instances do not fit
   */
  public BalloonsPolicy(
      String name,
      SystemTopology topology,
      BalloonsOptions options,
      CpuSet allowed,
      CpuSet reserved,
      DeviceCpus deviceCpus) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
    this.placer = new Placer(new BalloonTypeChooser(options));
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    this.reserved = Objects.requireNonNull(reserved, "reserved");
    this.key = PlacementKey.of(options, allowed, reserved);
    CpuTree tree = CpuTree.of(topology);
    CpuAllocator cpuAllocator = new CpuAllocator(topology);
    for (BalloonType t : options.effectiveTypes()) {
      types.put(t.name(), t);
      CpuTreeOptions o = CpuTreeOptions.of(t, options, topology, deviceCpus);
      allocators.put(t.name(), new CpuTreeAllocator(tree, cpuAllocator, o));
    }
    this.loads = new Loads(topology, options);
    this.assignments = new BalloonAssignments(topology, options, types);
    checkReservedSize(builtIn(BalloonType.RESERVED), reserved);
    this.initial = initialBalloons(reserved);
    this.view = new BalloonsView(topology, options, allowed, reserved);
    LOG.info("{} policy: available CPUs {}, balloons {}", name, allowed, initial);
  }

  /** The built-in type {@code name}, which {@link BalloonsOptions#effectiveTypes()} always has. */
  private BalloonType builtIn(String name) {
    return Objects.requireNonNull(types.get(name), () -> "no built-in balloon type " + name);
  }

  /** A reserved type's {@code MaxCPUs} must leave room for the reserved CPUs. */
  private static void checkReservedSize(BalloonType t, CpuSet reserved) {
    if (t.maxCpus() != 0 && t.maxCpus() < reserved.size()) {
      throw new PolicyException(
          String.format(
              "policy.balloons.BalloonTypes: balloon type \"reserved\": MaxCPUs (%d) is less than"
                  + " the %d CPUs of policy.ReservedResources.CPU (%s); set it to 0 or at least %d",
              t.maxCpus(), reserved.size(), reserved, reserved.size()));
    }
  }

  private List<Balloon> initialBalloons(CpuSet reserved) {
    BalloonSet set = newSet(List.of());
    Balloon reservedBalloon = Balloon.empty(BalloonType.RESERVED, 0, reserved, true);
    set.add(reservedBalloon);
    set.replaceAndResize(reservedBalloon, reservedBalloon); // up to its MinCPUs
    BalloonType dflt = builtIn(BalloonType.DEFAULT);
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
    return allocate(open(node, false), container, node);
  }

  /**
   * As {@link #allocate}, with the balloon it goes into growing onto the CPUs it runs on first
   * where they are free. Its balloon type is the one {@code allocate} would choose.
   */
  @Override
  public Decisions adopt(Container container, Assignment current, NodeState node) {
    BalloonSet set = open(node, false);
    // Without stored balloons, open placed every container the cache knows, this one included.
    placer.remove(set, container.cacheId());
    set.prefer(current.cpus());
    return allocate(set, container, node);
  }

  private Decisions allocate(BalloonSet set, Container container, NodeState node) {
    if (Placer.cpuPreserved(container, node)) {
      LOG.debug("{}: CPUs preserved, not in any balloon", container.name());
      return decide(
          set,
          node,
          null,
          Map.of(container.cacheId(), Explanation.of("no balloon: CPUs preserved (annotation)")));
    }
    placer.releaseOtherInitContainers(set, container, node);
    Optional<Balloon> held = set.holding(container.cacheId());
    Explanation why =
        held.isEmpty()
            ? placer.place(set, container, node)
            : set.explanation(container.cacheId())
                .orElse(Explanation.of("balloon " + held.get().name() + ": kept"));
    return decide(set, node, container.cacheId(), Map.of(container.cacheId(), why));
  }

  @Override
  public Decisions release(Container container, NodeState node) {
    BalloonSet set = open(node, false);
    placer.remove(set, container.cacheId());
    return decide(set, node, null);
  }

  @Override
  public Decisions update(Container container, NodeState node) {
    BalloonSet set = open(node, false);
    Optional<Balloon> held = set.holding(container.cacheId());
    if (held.isEmpty()) {
      return decide(set, node, null); // preserved CPUs: nothing to resize
    }
    Explanation why = Explanation.of("balloon " + held.get().name() + ": kept, resized in place");
    if (!placer.resizeInPlace(set, held.get(), container)) {
      placer.remove(set, container.cacheId());
      why = placer.place(set, container, node);
    }
    return decide(set, node, container.cacheId(), Map.of(container.cacheId(), why));
  }

  /**
   * Places every container again if the stored balloons were built by another configuration
   * (leaving out, with a warning, those that no longer fit); otherwise changes nothing.
   */
  @Override
  public Decisions rebalance(NodeState node) {
    return decide(open(node, false), node, null);
  }

  /** As {@link #rebalance}: a restart with another configuration places containers again. */
  @Override
  public Decisions start(NodeState node) {
    return rebalance(node);
  }

  /**
   * As {@link #rebalance}, but if a container finds no balloon under the new configuration, the
   * configuration is refused with the list of those containers, so the old one stays active.
   */
  @Override
  public Decisions reconfigure(NodeState node) {
    return decide(open(node, true), node, null);
  }

  private Decisions decide(BalloonSet set, NodeState node, @Nullable String subject) {
    return decide(set, node, subject, Map.of());
  }

  /**
   * The decisions for {@code set} with {@code explanations}, made at once: each copy by a {@code
   * Decisions.with*} method would copy and check the updates again.
   */
  private Decisions decide(
      BalloonSet set,
      NodeState node,
      @Nullable String subject,
      Map<String, Explanation> explanations) {
    List<Balloon> balloons = set.balloons();
    JsonNode data = BalloonState.write(balloons, key, containersJson);
    memo.put(data, balloons);
    return new Decisions(
        assignments.decide(set, node, subject),
        Optional.of(data),
        List.of(),
        Optional.of(CpuClasses.of(set, options.idleCpuClass())),
        explanations);
  }

  /**
   * The balloons of the policy data if this configuration built them, else the initial balloons
   * with every active container placed again in creation order. A container that no longer fits
   * fails a {@code strict} call; otherwise it is left out, with a warning, and keeps its CPUs.
   */
  private BalloonSet open(NodeState node, boolean strict) {
    Optional<JsonNode> data = node.policyData(name).filter(d -> !d.isMissingNode() && !d.isNull());
    List<Balloon> known = data.map(memo::get).orElse(null);
    if (known != null) {
      return newSet(known);
    }
    if (data.isPresent() && BalloonState.key(data.get()).equals(key)) {
      List<Balloon> stored = readable(data.get());
      if (stored != null && fits(stored)) {
        return newSet(stored);
      }
      LOG.warn("{}: stored balloons do not fit the CPUs, placing containers again", name);
    } else if (data.isPresent()) {
      LOG.info("{}: the configuration changed, placing containers again", name);
    }
    BalloonSet set = newSet(initial);
    List<String> failures = placer.placeAll(set, node);
    if (!failures.isEmpty() && strict) {
      throw new PolicyException(
          String.format(
              "balloons: the configuration cannot place %d containers: %s",
              failures.size(), String.join("; ", failures)));
    }
    failures.forEach(f -> LOG.warn("{}: left out of the balloons: {}", name, f));
    return set;
  }

  @Override
  public JsonNode introspect(NodeState node) {
    BalloonSet set = open(node, false);
    return view.introspect(
        set.balloons(),
        assignments.sharedIdle(set),
        CpuClasses.of(set, options.idleCpuClass()),
        node);
  }

  @Override
  public List<Gauge> collect(NodeState node) {
    BalloonSet set = open(node, false);
    return view.gauges(set.balloons(), assignments.sharedIdle(set), node);
  }

  /** The balloons of {@code data}, {@code null} (logged) if it cannot be read. */
  private @Nullable List<Balloon> readable(JsonNode data) {
    try {
      return BalloonState.read(data);
    } catch (PolicyException e) {
      LOG.warn("{}: {}", name, e.getMessage());
      return null;
    }
  }

  /**
   * Whether {@code stored} has known types, the reserved CPUs (a growing reserved balloon: and
   * more) and disjoint allowed CPUs.
   */
  private boolean fits(List<Balloon> stored) {
    CpuSet used = CpuSet.EMPTY;
    for (Balloon b : stored) {
      BalloonType t = types.get(b.type());
      CpuSet own = b.fixed() ? b.cpus().difference(reserved) : b.cpus();
      boolean ok =
          t != null
              && (!b.fixed() || b.cpus().containsAll(reserved))
              && (!b.fixed() || own.isEmpty() || t.growsBeyondReserved())
              && !own.intersects(used)
              && allowed.containsAll(b.cpus());
      if (!ok) {
        return false;
      }
      used = used.union(own);
    }
    return !used.intersects(reserved) && fixedTypes(stored).equals(fixedTypes(initial));
  }

  private static List<String> fixedTypes(List<Balloon> balloons) {
    return balloons.stream().filter(Balloon::fixed).map(Balloon::type).toList();
  }

  private BalloonSet newSet(List<Balloon> balloons) {
    BalloonSet set = new BalloonSet(balloons, types, allocators, allowed, reserved);
    set.loads(loads);
    return set;
  }

  /** The options. */
  public BalloonsOptions options() {
    return options;
  }
}
