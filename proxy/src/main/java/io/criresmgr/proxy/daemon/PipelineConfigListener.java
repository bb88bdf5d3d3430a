package io.criresmgr.proxy.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigListener;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.config.ResourceManagerConfig;
import io.criresmgr.proxy.pipeline.ActivePolicy;
import io.criresmgr.proxy.pipeline.PolicyActivation;
import io.criresmgr.proxy.pipeline.ResourceManager;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies sections {@code policy}, {@code resource-manager} and the controller sections of a new
 * configuration to the pipeline: new options of the active policy replace the policy, which
 * reconfigures; controller modes start and stop controllers, changed controller sections
 * reconfigure the running ones. A change of {@code policy.Active} takes effect at the next start,
 * as in cri-resmgr (a running switch would re-place every container at once).
 */
final class PipelineConfigListener implements ConfigListener {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineConfigListener.class);

  private final ResourceManager manager;
  private final PolicyRegistry registry;
  private final PolicyContext policyContext;
  private final ControllerContext controllerContext;
  private PolicyConfig appliedPolicy;
  private ResourceManagerConfig appliedControl;
  private Map<String, JsonNode> appliedSections;

  PipelineConfigListener(
      Config applied,
      ResourceManager manager,
      PolicyRegistry registry,
      PolicyContext policyContext,
      ControllerContext controllerContext) {
    this.appliedPolicy = applied.policy();
    this.appliedControl = applied.resourceManager();
    this.appliedSections = applied.controllerSections();
    this.manager = Objects.requireNonNull(manager, "manager");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.policyContext = Objects.requireNonNull(policyContext, "policyContext");
    this.controllerContext = Objects.requireNonNull(controllerContext, "controllerContext");
  }

  @Override
  public synchronized void configChanged(Config config) throws Exception {
    // The policy first: its refusal (e.g. containers that would not fit) changes nothing, while
    // controllers write files that a later refusal could not always take back.
    if (!config.policy().equals(appliedPolicy)) {
      applyPolicy(config.policy());
      appliedPolicy = config.policy();
    }
    if (!config.resourceManager().equals(appliedControl)
        || !config.controllerSections().equals(appliedSections)) {
      await(
          manager
              .pipeline()
              .run(
                  s -> {
                    s.configureControllers(
                        ControllerModes.available(
                            config.resourceManager().controllers(), s.controllers().names()),
                        controllerContext.withSections(config.controllerSections()).withNode(s));
                    return null;
                  }));
      appliedControl = config.resourceManager();
      appliedSections = config.controllerSections();
    }
  }

  private void applyPolicy(PolicyConfig policy) throws Exception {
    if (!policy.active().equals(appliedPolicy.active())) {
      LOG.warn(
          "policy.Active changed from {} to {}: the switch takes effect when cri-resmgr restarts",
          appliedPolicy.active(),
          policy.active());
      return;
    }
    ActivePolicy next = PolicyActivation.activate(registry, policy, policyContext);
    await(
        manager
            .pipeline()
            .run(
                s -> {
                  ActivePolicy previous = s.policy();
                  s.setPolicy(next);
                  try {
                    s.decide(p -> p.reconfigure(s.cache()), Set.of());
                  } catch (RuntimeException e) {
                    s.setPolicy(previous); // the refused configuration must leave no trace
                    throw e;
                  }
                  return null;
                }));
    LOG.info("policy {} reconfigured", next.name());
  }

  private static void await(java.util.concurrent.CompletableFuture<?> step) throws Exception {
    try {
      step.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
