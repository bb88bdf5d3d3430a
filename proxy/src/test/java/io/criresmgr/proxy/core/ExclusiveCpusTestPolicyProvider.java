package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;

/**
 * Provider of {@link ExclusiveCpusTestPolicy}, name {@value #NAME}. The CPUs are the online ones,
 * or those of {@code policy.AvailableResources.CPU: cpuset:<list>} among them.
 */
final class ExclusiveCpusTestPolicyProvider implements PolicyProvider<PolicyOptions> {
  /** The policy's name in {@code policy.Active}. */
  static final String NAME = "test-exclusive";

  private static final String CPUSET = "cpuset:";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Test policy: one exclusive CPU per container, the lowest free one.";
  }

  @Override
  public PolicyOptions parseOptions(JsonNode section) {
    if (!section.isEmpty()) {
      throw new PolicyException("policy." + NAME + ": has no options, found " + section);
    }
    return PolicyOptions.NONE;
  }

  @Override
  public Policy create(PolicyContext context, PolicyOptions options) {
    return new ExclusiveCpusTestPolicy(allowed(context));
  }

  static CpuSet allowed(PolicyContext context) {
    String value = context.availableResources().get("CPU");
    if (value == null) {
      return context.onlineCpus();
    }
    if (!value.startsWith(CPUSET)) {
      throw new PolicyException(
          "policy.AvailableResources.CPU: expected cpuset:<list>, found \"" + value + "\"");
    }
    try {
      return CpuSet.parse(value.substring(CPUSET.length())).intersection(context.onlineCpus());
    } catch (IllegalArgumentException e) {
      throw new PolicyException("policy.AvailableResources.CPU: " + e.getMessage(), e);
    }
  }
}
