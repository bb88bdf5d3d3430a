package io.criresmgr.proxy.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigListener;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.config.ResourceManagerConfig;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.PolicyActivation;
import io.criresmgr.proxy.core.PolicyState;
import io.criresmgr.proxy.core.PolicySwitch;
import io.criresmgr.proxy.core.ResourceManager;
import io.criresmgr.proxy.core.Section;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies sections {@code policy}, {@code resource-manager} and the controller sections of a new
 * configuration to the pipeline: the policy is activated against the host's CPUs as read now (so
 * new {@code AvailableResources} and {@code ReservedResources} take effect, and ones that would not
 * start are refused); new options of the active policy replace the policy, which reconfigures; a
 * new {@code policy.Active} switches the policy at once ({@link PolicySwitch}), unless {@code
 * --disable-policy-switch}; controller modes start and stop controllers, changed controller
 * sections reconfigure the running ones. Anything refused leaves the pipeline as it was.
 */
final class PipelineConfigListener implements ConfigListener {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineConfigListener.class);

  private final ResourceManager manager;
  private final PolicyRegistry registry;
  private final Path hostRoot;
  private final boolean disablePolicySwitch;
  private final ControllerContext controllerContext;
  private PolicyConfig appliedPolicy;
  private ResourceManagerConfig appliedControl;
  private Map<String, JsonNode> appliedSections;

  PipelineConfigListener(
      Config applied,
      ResourceManager manager,
      PolicyRegistry registry,
      Path hostRoot,
      boolean disablePolicySwitch,
      ControllerContext controllerContext) {
    this.appliedPolicy = applied.policy();
    this.appliedControl = applied.resourceManager();
    this.appliedSections = applied.controllerSections();
    this.manager = Objects.requireNonNull(manager, "manager");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.hostRoot = Objects.requireNonNull(hostRoot, "hostRoot");
    this.disablePolicySwitch = disablePolicySwitch;
    this.controllerContext = Objects.requireNonNull(controllerContext, "controllerContext");
  }

  @Override
  public synchronized void configChanged(Config config) throws Exception {
    boolean policyChanged = !config.policy().equals(appliedPolicy);
    boolean controlChanged =
        !config.resourceManager().equals(appliedControl)
            || !config.controllerSections().equals(appliedSections);
    if (!policyChanged && !controlChanged) {
      return;
    }
    boolean switching = !config.policy().active().equals(appliedPolicy.active());
    if (switching && disablePolicySwitch) {
      throw new ConfigException(
          PolicyConfig.switchDisabled(appliedPolicy.active(), config.policy().active()));
    }
    ActivePolicy next =
        policyChanged ? PolicyActivation.activate(registry, config.policy(), hostRoot) : null;
    await(manager.pipeline().run(s -> apply(s, config, next, switching, controlChanged)));
    appliedPolicy = config.policy();
    appliedControl = config.resourceManager();
    appliedSections = config.controllerSections();
    if (next != null) {
      LOG.info("policy {} {}", next.name(), switching ? "is now active" : "reconfigured");
    }
  }

  /**
   * One pipeline step, so that no request sees half of it. The policy goes first: its refusal (e.g.
   * containers that would not fit) changes nothing, while controllers write files that a later
   * refusal could not always take back. If the controllers then refuse, the policy's part is put
   * back as it was ({@link PolicyState}), so the configuration store's rollback finds nothing to
   * redo and no container is moved twice.
   */
  private @Nullable Void apply(
      Section s,
      Config config,
      @Nullable ActivePolicy next,
      boolean switching,
      boolean controlChanged) {
    PolicyState before = null;
    if (next != null) {
      PolicyState saved = PolicyState.of(s, next.name());
      before = saved;
      try {
        if (switching) {
          PolicySwitch.run(s, next);
        } else {
          reconfigure(s, next);
        }
      } catch (RuntimeException e) {
        saved.restore(s); // whatever failed, and wherever: the old state stands as a whole
        throw e;
      }
    }
    if (controlChanged) {
      try {
        s.configureControllers(
            ControllerModes.available(
                config.resourceManager().controllers(), s.controllers().names()),
            controllerContext.withSections(config.controllerSections()).withNode(s));
      } catch (RuntimeException e) {
        if (before != null) {
          before.restore(s);
        }
        throw e;
      }
    }
    return null;
  }

  private static void reconfigure(Section s, ActivePolicy next) {
    ActivePolicy previous = s.policy();
    s.setPolicy(next);
    try {
      s.decide(p -> p.reconfigure(s.cache()), Set.of());
    } catch (RuntimeException e) {
      s.setPolicy(previous); // the refused configuration must leave no trace
      throw e;
    }
  }

  private static void await(java.util.concurrent.CompletableFuture<?> step) throws Exception {
    try {
      step.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
