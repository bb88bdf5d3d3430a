package io.criresmgr.policy.none;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;

/** The {@code none} policy: makes no placement decisions; the runtime's defaults apply. */
public final class NonePolicyProvider implements PolicyProvider {
  /** The policy's name. */
  public static final String NAME = "none";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A no-op policy, doing pretty much nothing.";
  }

  @Override
  public PolicyOptions parseOptions(JsonNode section) {
    if (!section.isEmpty()) {
      throw new PolicyException(
          "policy." + NAME + ": the none policy has no options, found " + section);
    }
    return PolicyOptions.NONE;
  }

  @Override
  public Policy create(PolicyContext context, PolicyOptions options) {
    return new NonePolicy();
  }

  /** Decides nothing. */
  static final class NonePolicy implements Policy {
    @Override
    public Decisions allocate(Container container, NodeState node) {
      return Decisions.NONE;
    }

    @Override
    public Decisions release(Container container, NodeState node) {
      return Decisions.NONE;
    }

    @Override
    public Decisions update(Container container, NodeState node) {
      return Decisions.NONE;
    }
  }
}
