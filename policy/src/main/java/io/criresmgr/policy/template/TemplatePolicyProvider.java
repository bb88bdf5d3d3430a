package io.criresmgr.policy.template;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The template policy's entry in the {@link io.criresmgr.policy.PolicyRegistry}: name {@code
 * template}, options {@link TemplateOptions}, and a factory that reads the allowed CPUs from the
 * context once, so that a bad {@code policy.AvailableResources} fails activation, not a request.
 */
public final class TemplatePolicyProvider implements PolicyProvider<TemplateOptions> {
  /**
   * The policy's name, in {@code policy.Active} and as the options section {@code policy.template}.
   */
  public static final String NAME = "template";

  private static final Logger LOG = LoggerFactory.getLogger(TemplatePolicyProvider.class);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Example policy: exclusive CPUs for whole-CPU containers, a shared pool for the rest.";
  }

  @Override
  public TemplateOptions parseOptions(JsonNode section) {
    return TemplateOptions.parse(section);
  }

  /**
   * Creates the policy.
   *
   * @throws io.criresmgr.policy.PolicyException if {@code policy.AvailableResources.CPU} is
   *     malformed or names no online CPU
   */
  @Override
  public Policy create(PolicyContext context, TemplateOptions templateOptions) {
    CpuSet allowed = AllowedCpus.from(context);
    LOG.info(
        "template policy: allowed CPUs {}, memory nodes {}, exclusive CPUs {}",
        allowed,
        context.memoryNodes(),
        templateOptions.exclusiveCpus() ? "on" : "off");
    return new TemplatePolicy(allowed, context.memoryNodes(), templateOptions);
  }
}
