package io.criresmgr.proxy.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.PolicyConfig;

/** Creates the active policy from section {@code policy}. */
public final class PolicyActivation {
  private PolicyActivation() {}

  /**
   * The policy named by {@code policy.Active}, with its options from {@code policy.<name>}.
   *
   * @throws ConfigException naming the section if the policy rejects its options or context
   */
  public static ActivePolicy activate(
      PolicyRegistry registry, PolicyConfig config, PolicyContext context) {
    PolicyProvider provider =
        registry
            .find(config.active())
            .orElseThrow(
                () ->
                    new ConfigException(
                        "policy.Active: unknown policy \""
                            + config.active()
                            + "\", expected one of "
                            + String.join(", ", registry.names())));
    JsonNode section =
        config.options().getOrDefault(provider.name(), JsonNodeFactory.instance.objectNode());
    try {
      PolicyOptions options = provider.parseOptions(section);
      return new ActivePolicy(provider.name(), provider.create(context, options));
    } catch (PolicyException e) {
      throw new ConfigException("policy " + provider.name() + ": " + e.getMessage(), e);
    }
  }
}
