package io.criresmgr.proxy.core;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.TopologyHint;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.policy.sysfs.DeviceHints;
import io.criresmgr.proxy.core.cri.ContainerUses;
import io.grpc.Channel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The resource-management pipeline assembled: cache, active policy, controllers (the CRI controller
 * first among equals), the serialized section and the intercepted request handlers.
 */
public final class ResourceManager implements AutoCloseable {
  private final Section section;
  private final Pipeline pipeline;
  private final RuntimeClient runtime;
  private final RuntimeUpdates updates;
  private final Requests requests;
  private final PolicyTimers timers;
  private final ExportedResources exports;
  private final DeviceHintLookup hints;

  /**
   * Assembles the pipeline over {@code cache} with {@code policy}, the CRI controller and {@code
   * hostControllers}, calling the runtime over {@code runtimeChannel} and saving to {@code file};
   * steps submitted from {@code transportThreads}, the front end's threads that must never wait,
   * always queue ({@link Pipeline}).
   */
  public ResourceManager(
      NodeCache cache,
      ActivePolicy policy,
      List<? extends Controller> hostControllers,
      Channel runtimeChannel,
      CacheFile file,
      Predicate<Thread> transportThreads) {
    runtime = new RuntimeClient(runtimeChannel);
    updates = new RuntimeUpdates(runtime);
    List<Controller> controllers = new ArrayList<>(hostControllers);
    controllers.add(new CriController(updates));
    section = new Section(cache, policy, new ControllerSet(controllers));
    exports =
        ExportedResources.in(
            Objects.requireNonNull(file.path().getParent(), "the cache file's directory"));
    section.setExports(exports);
    pipeline =
        new Pipeline(
            section, new CacheSaver(Objects.requireNonNull(file, "file")), transportThreads);
    timers = new PolicyTimers(pipeline);
    section.setTimers(timers);
    updates.onFailure(
        (cacheId, assignment) -> {
          // Best effort, like the update that failed: the container keeps its assignment either
          // way.
          var unused =
              pipeline.run(
                  s -> {
                    s.cache()
                        .container(cacheId)
                        .filter(c -> c.assignment().equals(assignment))
                        .ifPresent(
                            c ->
                                s.put(
                                    c.withAssignment(
                                        assignment, java.util.Set.of(CriController.NAME))));
                    return null;
                  });
        });
    hints = DeviceHintLookup.of(section::deviceHints, CreateRequests.HINTS_LIMIT);
    requests =
        new Requests(
            new PodRequests(pipeline, runtime),
            new CreateRequests(pipeline, runtime, updates, hints),
            new ContainerRequests(pipeline, runtime),
            new UpdateRequests(pipeline, runtime, updates),
            new ListRequests(pipeline, runtime),
            section);
  }

  /** Sets the node's memory capacity ({@link Section#memoryCapacity()}) before requests arrive. */
  public void setMemoryCapacity(long bytes) {
    section.setMemoryCapacity(bytes);
  }

  /** Reads the device hints of created containers below {@code hostRoot} ({@code --host-root}). */
  public void setHostRoot(Path hostRoot) {
    section.setDeviceHints(new DeviceHints(hostRoot));
  }

  /** The serialized section's executor. */
  public Pipeline pipeline() {
    return pipeline;
  }

  /** The pipeline's own UpdateContainerResources calls. */
  RuntimeUpdates updates() {
    return updates;
  }

  /**
   * The device hints of container {@code name} adopted at start-up with {@code uses}, found on the
   * lookup threads of created containers and within the same limit; none if that fails.
   */
  CompletableFuture<List<TopologyHint>> adoptedHints(String name, ContainerUses uses) {
    if (uses.isEmpty()) {
      return CompletableFuture.completedFuture(List.of());
    }
    return hints.of(name, () -> section.deviceHints(uses));
  }

  /** The runtime client the pipeline uses. */
  public RuntimeClient runtime() {
    return runtime;
  }

  /** The handlers of the intercepted methods, which every front end drives. */
  public Requests requests() {
    return requests;
  }

  /** Finishes queued steps and saves the cache. */
  @Override
  public void close() {
    timers.close();
    pipeline.close();
    exports.close();
  }
}
