package io.criresmgr.policy.builtin;

import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.balloons.BalloonsPolicyProvider;
import io.criresmgr.policy.none.NonePolicyProvider;
import io.criresmgr.policy.template.TemplatePolicyProvider;
import io.criresmgr.policy.topologyaware.TopologyAwarePolicyProvider;
import java.util.List;

/**
 * The built-in policies, listed explicitly (no class-path scanning, no static registration): add a
 * new built-in policy's provider here. A package of its own, so that the policy SPI (the root
 * package) depends on no policy.
 */
public final class BuiltInPolicies {
  private BuiltInPolicies() {}

  /** A registry of the built-in policies, in the order {@code --list-policies} shows them. */
  public static PolicyRegistry registry() {
    return new PolicyRegistry(
        List.of(
            new NonePolicyProvider(),
            NonePolicyProvider.memoryQos(),
            new TemplatePolicyProvider(),
            new TopologyAwarePolicyProvider(),
            TopologyAwarePolicyProvider.memtier(),
            new BalloonsPolicyProvider()));
  }
}
