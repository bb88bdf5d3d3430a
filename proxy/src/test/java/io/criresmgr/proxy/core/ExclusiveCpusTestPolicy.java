package io.criresmgr.proxy.core;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyException;
import java.util.Objects;

/**
 * A test policy: every container gets one exclusive CPU, the lowest one that no other active
 * container holds. It keeps no state of its own: what is free follows from the assignments in the
 * node state, so a restored or reconciled cache is all it needs.
 */
final class ExclusiveCpusTestPolicy implements Policy {
  private final CpuSet allowed;

  /** Hands out CPUs of {@code allowed}. */
  ExclusiveCpusTestPolicy(CpuSet allowed) {
    this.allowed = Objects.requireNonNull(allowed, "allowed");
  }

  @Override
  public Decisions allocate(Container container, NodeState node) {
    CpuSet free = allowed.difference(heldByOthers(container, node));
    if (free.isEmpty()) {
      throw new PolicyException(
          "no free exclusive CPU for container "
              + container.cacheId()
              + ": all of "
              + allowed
              + " are taken");
    }
    return Decisions.of(container.cacheId(), Assignment.of(free.lowest(1), CpuSet.EMPTY));
  }

  /** The released container is no longer active, so its CPU counts as free without a decision. */
  @Override
  public Decisions release(Container container, NodeState node) {
    return Decisions.NONE;
  }

  /** Keeps a CPU the container holds alone; otherwise allocates afresh. */
  @Override
  public Decisions update(Container container, NodeState node) {
    CpuSet held = container.assignment().cpus();
    if (held.size() == 1 && !held.intersects(heldByOthers(container, node))) {
      return Decisions.NONE;
    }
    return allocate(container, node);
  }

  private static CpuSet heldByOthers(Container container, NodeState node) {
    CpuSet held = CpuSet.EMPTY;
    for (Container c : node.containers()) {
      if (c.state().isActive() && !c.cacheId().equals(container.cacheId())) {
        held = held.union(c.assignment().cpus());
      }
    }
    return held;
  }
}
