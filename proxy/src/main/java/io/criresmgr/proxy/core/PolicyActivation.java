package io.criresmgr.proxy.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.policy.HostCpus;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.PolicyConfig;
import java.nio.file.Path;

/**
 * Creates the active policy from section {@code policy}. Start-up, reloads and the node agent's
 * configurations all go through here, so a configuration that would not start is refused before
 * anything is stored (docs/configuration.md, "What a reload checks").
 */
public final class PolicyActivation {
  private PolicyActivation() {}

  /**
   * The policy context of this host for {@code config}: the CPUs and memory nodes online below
   * {@code hostRoot} (empty: the real root) and the section's resource constraints. Read afresh for
   * every use, so a reload sees CPUs taken offline since the start.
   *
   * @throws ConfigException if the host's CPU lists cannot be read
   */
  public static PolicyContext context(Path hostRoot, PolicyConfig config) {
    // --host-root "" means the real root, not the working directory.
    Path root = hostRoot.toString().isEmpty() ? Path.of("/") : hostRoot;
    try {
      return HostCpus.read(root)
          .context(root, config.availableResources(), config.reservedResources());
    } catch (PolicyException e) {
      throw new ConfigException("cannot discover the host's CPUs: " + e.getMessage(), e);
    }
  }

  /** {@link #activate} with the {@link #context} of {@code hostRoot}. */
  public static ActivePolicy activate(PolicyRegistry registry, PolicyConfig config, Path hostRoot) {
    return activate(registry, config, context(hostRoot, config));
  }

  /**
   * The policy named by {@code policy.Active}, with its options from {@code policy.<name>}.
   *
   * @throws ConfigException naming the section if the policy rejects its options or context
   */
  public static ActivePolicy activate(
      PolicyRegistry registry, PolicyConfig config, PolicyContext context) {
    PolicyProvider<?> provider =
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
      return new ActivePolicy(provider.name(), provider.parseAndCreate(context, section));
    } catch (PolicyException e) {
      throw new ConfigException("policy " + provider.name() + ": " + e.getMessage(), e);
    }
  }
}
