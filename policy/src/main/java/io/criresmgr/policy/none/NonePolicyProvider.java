package io.criresmgr.policy.none;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.NodeState;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;

/**
 * The {@code none} policy: makes no placement decisions; the runtime's defaults apply. Also
 * registered as {@code memory-qos}: no placement, so that the memory QoS and memtierd controllers
 * (which work with any policy) run alone, as the nri-plugins memory-qos plugin does.
 */
public final class NonePolicyProvider implements PolicyProvider<PolicyOptions> {
  /** The policy's name. */
  public static final String NAME = "none";

  /** The name of the placement-free policy that leaves the node to the memory controllers. */
  public static final String MEMORY_QOS = "memory-qos";

  private final String name;
  private final String description;

  /** The {@code none} policy. */
  public NonePolicyProvider() {
    this(NAME, "A no-op policy, doing pretty much nothing.");
  }

  private NonePolicyProvider(String name, String description) {
    this.name = name;
    this.description = description;
  }

  /** The {@code memory-qos} policy: {@code none} under the name operators of nri-plugins know. */
  public static NonePolicyProvider memoryQos() {
    return new NonePolicyProvider(
        MEMORY_QOS,
        "No CPU or memory placement; memory QoS and memtierd classes only (controllers).");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public PolicyOptions parseOptions(JsonNode section) {
    if (!section.isEmpty()) {
      throw new PolicyException(
          "policy."
              + name
              + ": the "
              + name
              + " policy has no options"
              + (name.equals(MEMORY_QOS) ? " (classes go to the top-level section memory-qos)" : "")
              + ", found "
              + section);
    }
    return PolicyOptions.NONE;
  }

  @Override
  public Policy create(PolicyContext context, PolicyOptions options) {
    return new NonePolicy();
  }

  /** Decides nothing. */
  static final class NonePolicy implements Policy {
    private static final Explanation WHY =
        Explanation.of("none: no placement, the runtime's defaults apply");

    @Override
    public Decisions allocate(Container container, NodeState node) {
      return Decisions.NONE.withExplanation(container.cacheId(), WHY);
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
