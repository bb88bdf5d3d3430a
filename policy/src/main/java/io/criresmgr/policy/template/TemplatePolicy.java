package io.criresmgr.policy.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Introspectable;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyMetrics;
import io.criresmgr.policy.cpuallocator.PreferredCpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The template policy. A container whose CPU request equals its limit and is a whole number {@code
 * n >= 1} of CPUs gets the {@code n} lowest free allowed CPUs exclusively; every other container
 * gets the shared pool (allowed CPUs no one holds exclusively). Memory: every node. A container
 * adopted after the cache was lost takes its exclusive CPUs among the ones it runs on first.
 *
 * <p>The policy is a pure function of the cache: it keeps no fields that change and stores no
 * {@link Decisions#policyData()}. Which CPUs are taken is read back from the assignments the cache
 * recorded ({@link Placement#derive}). So a crash loses nothing, a rejected decision leaves nothing
 * behind, and a restarted daemon continues where it stopped. A policy with its own map of taken
 * CPUs would have to undo it whenever the pipeline rolls a decision back (the runtime refused the
 * container) and would have to persist it; reading the cache needs neither.
 *
 * <p>When the shared pool changes, every active shared container gets an update, in creation order,
 * after the container the call is about.
 */
final class TemplatePolicy implements Policy, Introspectable, PolicyMetrics {
  private final CpuSet allowed;
  private final CpuSet mems;
  private final TemplateOptions options;

  TemplatePolicy(CpuSet allowed, CpuSet mems, TemplateOptions options) {
    this.allowed = Objects.requireNonNull(allowed, "allowed");
    this.mems = Objects.requireNonNull(mems, "mems");
    this.options = Objects.requireNonNull(options, "options");
  }

  @Override
  public Decisions allocate(Container container, NodeState node) {
    return place(container, node);
  }

  /** As {@link #allocate}, taking exclusive CPUs among the ones it runs on first. */
  @Override
  public Decisions adopt(Container container, Assignment current, NodeState node) {
    return place(container, node, current.cpus());
  }

  @Override
  public Decisions update(Container container, NodeState node) {
    return place(container, node);
  }

  @Override
  public Decisions release(Container container, NodeState node) {
    Placement next = derive(node, container.cacheId());
    return Decisions.of(sharedUpdates(next, node, container.cacheId()));
  }

  /** Moves shared containers whose cpuset is not the shared pool (e.g. after an options change). */
  @Override
  public Decisions rebalance(NodeState node) {
    return Decisions.of(sharedUpdates(derive(node, ""), node, ""));
  }

  /**
   * New options (a reload, e.g. fewer allowed CPUs): an exclusive container whose CPUs are no
   * longer all allowed gets the lowest free allowed ones, in creation order, and shared containers
   * follow the pool. If one no longer fits, the options are refused naming it.
   */
  @Override
  public Decisions reconfigure(NodeState node) {
    Placement placement = derive(node, "");
    List<Decisions.Update> updates = new ArrayList<>();
    for (Container c : node.containers()) {
      int wanted = wantedExclusive(c);
      if (!c.state().isActive() || wanted == 0 || placement.exclusive().containsKey(c.cacheId())) {
        continue;
      }
      try {
        placement = takeExclusive(placement, c, wanted, node, c.assignment().cpus());
      } catch (PolicyException e) {
        throw new PolicyException(
            "container " + c.cacheId() + " would not fit: " + e.getMessage(), e);
      }
      CpuSet taken =
          Objects.requireNonNull(
              placement.exclusive().get(c.cacheId()), "takeExclusive records the container");
      updates.add(new Decisions.Update(c.cacheId(), Assignment.of(taken, mems)));
    }
    updates.addAll(sharedUpdates(placement, node, ""));
    return Decisions.of(updates);
  }

  /** The number of exclusive CPUs {@code c} wants; 0 means it shares. */
  int wantedExclusive(Container c) {
    Resources r = c.adjustedResources();
    boolean whole = r.cpuRequestMilli() >= 1000 && r.cpuRequestMilli() % 1000 == 0;
    if (!options.exclusiveCpus() || !whole || r.cpuRequestMilli() != r.cpuLimitMilli()) {
      return 0;
    }
    return (int) Math.min(Integer.MAX_VALUE, r.cpuRequestMilli() / 1000);
  }

  private Decisions place(Container container, NodeState node) {
    return place(container, node, CpuSet.EMPTY);
  }

  private Decisions place(Container container, NodeState node, CpuSet preferred) {
    String id = container.cacheId();
    Placement next = placeOne(container, node, preferred);
    CpuSet cpus = next.exclusive().getOrDefault(id, next.shared());
    List<Decisions.Update> updates = new ArrayList<>();
    updates.add(new Decisions.Update(id, Assignment.of(cpus, mems)));
    updates.addAll(sharedUpdates(next, node, id));
    String why =
        next.exclusive().containsKey(id)
            ? "template: exclusive CPUs " + cpus + " (whole CPUs requested, equal to the limit)"
            : "template: the shared pool " + cpus;
    return Decisions.of(updates).withExplanation(id, Explanation.of(why));
  }

  /** The placement once {@code container} has what it wants. */
  private Placement placeOne(Container container, NodeState node, CpuSet preferred) {
    int wanted = wantedExclusive(container);
    Placement current = derive(node, "");
    CpuSet held = current.exclusive().get(container.cacheId());
    if (wanted > 0 && held != null && held.size() == wanted) {
      return current; // it holds what it wants already: keep that, so allocating is idempotent
    }
    Placement others = derive(node, container.cacheId());
    if (wanted > 0) {
      return takeExclusive(others, container, wanted, node, preferred);
    }
    if (others.shared().isEmpty()) {
      throw new PolicyException(
          "no shared CPUs left for "
              + container.cacheId()
              + ": all allowed CPUs ("
              + allowed
              + ") are held exclusively; release an exclusive container or allow more CPUs");
    }
    return others;
  }

  private Placement takeExclusive(
      Placement others, Container container, int wanted, NodeState node, CpuSet preferred) {
    CpuSet free = others.shared();
    if (free.size() < wanted) {
      throw new PolicyException(
          "not enough free CPUs for exclusive allocation of "
              + wanted
              + " CPUs to "
              + container.cacheId()
              + ": "
              + free.size()
              + " free ("
              + free
              + ")");
    }
    CpuSet taken = PreferredCpus.take(free, wanted, preferred, CpuSet::lowest);
    List<String> sharers = sharedContainers(others, node, container.cacheId());
    if (taken.equals(free) && !sharers.isEmpty()) {
      throw new PolicyException(
          "exclusive allocation of "
              + wanted
              + " CPUs to "
              + container.cacheId()
              + " refused: it would take the last shared CPUs ("
              + free
              + ") from "
              + sharers.size()
              + " shared container(s): "
              + String.join(", ", sharers));
    }
    return others.withExclusive(container.cacheId(), taken);
  }

  /** Updates moving every shared container but {@code skip} whose cpuset differs to the pool. */
  private List<Decisions.Update> sharedUpdates(Placement placement, NodeState node, String skip) {
    Assignment pool = Assignment.of(placement.shared(), mems);
    List<Decisions.Update> updates = new ArrayList<>();
    for (String id : sharedContainers(placement, node, skip)) {
      Container c = node.container(id).orElseThrow();
      if (!c.assignment().equals(pool)) {
        updates.add(new Decisions.Update(id, pool));
      }
    }
    return updates;
  }

  /** Active containers other than {@code skip} holding no exclusive CPUs, in creation order. */
  private static List<String> sharedContainers(Placement placement, NodeState node, String skip) {
    return node.containers().stream()
        .filter(c -> c.state().isActive() && !c.cacheId().equals(skip))
        .map(Container::cacheId)
        .filter(id -> !placement.exclusive().containsKey(id))
        .toList();
  }

  /** The placement of the active containers but {@code skip} ("" for none). */
  private Placement derive(NodeState node, String skip) {
    List<Container> active =
        node.containers().stream()
            .filter(c -> c.state().isActive() && !c.cacheId().equals(skip))
            .toList();
    return Placement.derive(allowed, active, this::wantedExclusive);
  }

  /** {@code {"allowed", "sharedPool", "exclusive": {cacheId: cpus}, "options"}}. */
  @Override
  public JsonNode introspect(NodeState node) {
    Placement placement = derive(node, "");
    ObjectNode view = JsonNodeFactory.instance.objectNode();
    view.put("allowed", allowed.toString());
    view.put("sharedPool", placement.shared().toString());
    view.put("mems", mems.toString());
    ObjectNode exclusive = view.putObject("exclusive");
    placement.exclusive().forEach((id, cpus) -> exclusive.put(id, cpus.toString()));
    view.putObject("options").put(TemplateOptions.EXCLUSIVE_CPUS, options.exclusiveCpus());
    return view;
  }

  @Override
  public List<Gauge> collect(NodeState node) {
    Placement placement = derive(node, "");
    return List.of(
        new Gauge(
            "cri_resmgr_template_shared_cpus",
            "CPUs in the template policy's shared pool",
            Map.of(),
            placement.shared().size()),
        new Gauge(
            "cri_resmgr_template_exclusive_cpus",
            "CPUs held exclusively by containers under the template policy",
            Map.of(),
            placement.exclusiveCpus().size()));
  }
}
