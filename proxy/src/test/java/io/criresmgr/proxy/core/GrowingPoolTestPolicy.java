package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * A test policy whose every decision changes the other containers too: all active containers share
 * CPUs {@code 0..n-1}, where n is their number, so each allocation and release updates everybody
 * (oldest first).
 */
final class GrowingPoolTestPolicy implements Policy {
  /** The policy's name in {@code policy.Active}. */
  static final String NAME = "test-growing-pool";

  @Override
  public Decisions allocate(Container container, NodeState node) {
    return shareAmongActive(node);
  }

  @Override
  public Decisions release(Container container, NodeState node) {
    return shareAmongActive(node);
  }

  @Override
  public Decisions update(Container container, NodeState node) {
    return Decisions.NONE;
  }

  private static Decisions shareAmongActive(NodeState node) {
    List<Container> active = node.containers().stream().filter(c -> c.state().isActive()).toList();
    if (active.isEmpty()) {
      return Decisions.NONE;
    }
    Assignment shared = Assignment.of(CpuSet.range(0, active.size() - 1), CpuSet.EMPTY);
    List<Decisions.Update> updates = new ArrayList<>();
    active.forEach(c -> updates.add(new Decisions.Update(c.cacheId(), shared)));
    return Decisions.of(updates);
  }

  /** Its provider. */
  static final class Provider implements PolicyProvider<PolicyOptions> {
    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "Test policy: all containers share CPUs 0..n-1.";
    }

    @Override
    public PolicyOptions parseOptions(JsonNode section) {
      return PolicyOptions.NONE;
    }

    @Override
    public Policy create(PolicyContext context, PolicyOptions options) {
      return new GrowingPoolTestPolicy();
    }
  }
}
