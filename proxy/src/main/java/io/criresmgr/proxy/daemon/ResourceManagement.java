package io.criresmgr.proxy.daemon;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.StoredAdjustments;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.NodeView;
import io.criresmgr.controllers.builtin.BuiltInControllers;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigListener;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.AdjustmentStep;
import io.criresmgr.proxy.core.PolicyActivation;
import io.criresmgr.proxy.core.ResourceManager;
import io.criresmgr.proxy.core.StartupSync;
import io.criresmgr.proxy.relay.VersionCheck;
import io.grpc.Channel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's resource-management part: restores the cache (a corrupt file is moved aside, never
 * fatal), refuses a policy switch under {@code --disable-policy-switch}, activates the policy,
 * starts the controllers, reconciles with the runtime and runs the rebalancing timer.
 */
final class ResourceManagement implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ResourceManagement.class);

  private final ResourceManager manager;
  private final PolicyRegistry registry;
  private final DaemonOptions options;
  private final ControllerContext controllerContext;
  private final @Nullable Rebalancer rebalancer;

  private ResourceManagement(
      ResourceManager manager,
      PolicyRegistry registry,
      DaemonOptions options,
      ControllerContext controllerContext,
      @Nullable Rebalancer rebalancer) {
    this.manager = manager;
    this.registry = registry;
    this.options = options;
    this.controllerContext = controllerContext;
    this.rebalancer = rebalancer;
  }

  /**
   * Starts everything once {@code version} has accepted the runtime; the caller owns the result.
   * Only the policy is built before: it reads the host and changes nothing, so it can overlap the
   * runtime's first answer. Without {@code version} (NRI mode, docs/nri.md) there is no runtime to
   * ask yet: the cache is reconciled at NRI's Synchronize instead of here.
   */
  static ResourceManagement start(
      DaemonOptions options,
      Config config,
      Channel runtime,
      @Nullable VersionCheck version,
      PolicyRegistry registry)
      throws InterruptedException {
    return start(
        options,
        config,
        runtime,
        version,
        registry,
        CompletableFuture.completedFuture(
            PolicyActivation.activate(registry, config.policy(), options.hostRoot())));
  }

  /**
   * Begins activating the policy of {@code config} on a thread of its own, for {@link
   * #start(DaemonOptions, Config, Channel, VersionCheck, PolicyRegistry, CompletableFuture)}: it
   * reads the host and changes nothing, so it can overlap the runtime's connection and the
   * instrumentation's start (docs/benchmarks.md, "Start-up").
   */
  static CompletableFuture<ActivePolicy> activateInBackground(
      PolicyRegistry registry, Config config, Path hostRoot) {
    CompletableFuture<ActivePolicy> pending = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                pending.complete(PolicyActivation.activate(registry, config.policy(), hostRoot));
              } catch (RuntimeException | Error e) {
                pending.completeExceptionally(e);
              }
            },
            "policy-activation");
    t.setDaemon(true);
    t.start();
    return pending;
  }

  /**
   * {@link #start(DaemonOptions, Config, Channel, VersionCheck, PolicyRegistry)} with the policy
   * being activated by {@code pending}; its failure (a {@link ConfigException} for a policy that
   * cannot run on this host) is thrown as it was thrown there.
   */
  static ResourceManagement start(
      DaemonOptions options,
      Config config,
      Channel runtime,
      @Nullable VersionCheck version,
      PolicyRegistry registry,
      CompletableFuture<ActivePolicy> pending)
      throws InterruptedException {
    ActivePolicy policy = await(pending);
    if (version != null) {
      version.await();
    }
    CacheFile file = new CacheFile(options.relayDir());
    NodeCache cache = restore(file);
    checkPolicySwitch(options, cache, config.policy().active());
    ControllerContext controllerContext =
        new ControllerContext(
            options.hostRoot(),
            options.cgroupMount(),
            config.controllerSections(),
            NodeView.EMPTY,
            options.relayDir());
    ResourceManager manager =
        new ResourceManager(
            cache,
            policy,
            BuiltInControllers.registry().createAll(),
            runtime,
            file,
            EventLoops::madeByNetty);
    manager.setMemoryCapacity(HostMemory.capacity(options.hostRoot()));
    manager.setHostRoot(options.hostRoot());
    try {
      startControllers(manager, config, controllerContext);
      if (version != null) {
        StartupSync.run(manager);
      }
      StoredAdjustmentsRestore.run(
          manager.pipeline(),
          options.forceConfig().isEmpty() && options.configSocket().isPresent());
    } catch (RuntimeException | InterruptedException e) {
      manager.close();
      throw e;
    }
    Rebalancer rebalancer =
        options.rebalanceInterval().isZero()
            ? null
            : new Rebalancer(manager.pipeline(), options.rebalanceInterval());
    return new ResourceManagement(manager, registry, options, controllerContext, rebalancer);
  }

  private static ActivePolicy await(CompletableFuture<ActivePolicy> pending)
      throws InterruptedException {
    try {
      return pending.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException("policy activation failed", cause);
    }
  }

  private static NodeCache restore(CacheFile file) {
    CacheFile.LoadResult loaded = file.load();
    loaded.problem().ifPresent(LOG::warn);
    return loaded.snapshot().map(NodeCache::restore).orElseGet(NodeCache::new);
  }

  private static void checkPolicySwitch(DaemonOptions options, NodeCache cache, String active) {
    String recorded = cache.activePolicy();
    if (options.disablePolicySwitch() && !recorded.isEmpty() && !recorded.equals(active)) {
      throw new ConfigException(
          "the cache records policy "
              + recorded
              + " but policy.Active is "
              + active
              + " and --disable-policy-switch forbids switching; set policy.Active: "
              + recorded
              + " or run cri-resmgr --reset-policy");
    }
  }

  private static void startControllers(
      ResourceManager manager, Config config, ControllerContext context)
      throws InterruptedException {
    try {
      manager
          .pipeline()
          .run(
              s -> {
                s.configureControllers(
                    ControllerModes.available(
                        config.resourceManager().controllers(), s.controllers().names()),
                    context.withNode(s));
                return null;
              })
          .get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ControllerException c) {
        throw new ConfigException(Objects.requireNonNullElse(c.getMessage(), c.toString()), c);
      }
      throw new ConfigException("cannot start controllers: " + e.getCause(), e);
    }
  }

  /** The pipeline. */
  ResourceManager manager() {
    return manager;
  }

  /** Follows configuration changes of sections {@code policy} and {@code resource-manager}. */
  ConfigListener configListener(Config applied) {
    return new PipelineConfigListener(
        applied,
        manager,
        registry,
        options.hostRoot(),
        options.disablePolicySwitch(),
        controllerContext);
  }

  /**
   * Puts {@code set} in force through the pipeline (see {@link AdjustmentStep}); returns the errors
   * by container id, empty when in force. An interrupted or failed step is reported under {@code
   * cache}: the set is then not in force.
   */
  Map<String, String> applyAdjustments(AdjustmentSet set, StoredAdjustments stored) {
    try {
      return manager.pipeline().run(s -> AdjustmentStep.apply(s, set, stored)).get();
    } catch (ExecutionException e) {
      return Map.of(
          AdjustmentStep.CACHE_KEY,
          String.valueOf(Objects.requireNonNullElse(e.getCause(), e).getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Map.of(AdjustmentStep.CACHE_KEY, "interrupted while applying the adjustments");
    }
  }

  /**
   * Stores the agent's accepted configuration text in the cache (saved with it); a failure is
   * logged: the configuration stays active, only a restart would not find it.
   */
  void storeAgentConfig(String text) {
    try {
      manager
          .pipeline()
          .run(
              s -> {
                s.cache().setAgentConfig(text);
                return null;
              })
          .get();
    } catch (ExecutionException e) {
      LOG.warn(
          "cannot store the agent configuration in the cache: {}",
          Objects.requireNonNullElse(e.getCause(), e).toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    if (rebalancer != null) {
      rebalancer.close();
    }
    manager.close();
  }
}
