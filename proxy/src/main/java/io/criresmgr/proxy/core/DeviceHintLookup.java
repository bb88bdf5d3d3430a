package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.cache.TopologyHint;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the device hints of a container being created or adopted at start-up (docs/topology.md,
 * "Device hints") off the pipeline thread and within a time limit. The lookup stats the host paths
 * of the container's devices and writable mounts: a mount on a hung network file system would block
 * a {@code stat} for as long as the server is away, and on the serialized pipeline thread that
 * would stop every pod start on the node. Here such a lookup only costs its container its hints
 * (logged), on one of a few dedicated threads.
 */
final class DeviceHintLookup {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceHintLookup.class);

  /** Threads for lookups; a hung one keeps its thread, the others go on. */
  private static final int THREADS = 4;

  private final Function<ContainerConfig, List<TopologyHint>> hints;
  private final Duration limit;
  private final @Nullable ExecutorService executor;

  private DeviceHintLookup(
      Function<ContainerConfig, List<TopologyHint>> hints,
      Duration limit,
      @Nullable ExecutorService executor) {
    this.hints = Objects.requireNonNull(hints, "hints");
    this.limit = Objects.requireNonNull(limit, "limit");
    this.executor = executor;
  }

  /** No lookup: every container has no hints (a daemon without a host root, tests). */
  static DeviceHintLookup none() {
    return new DeviceHintLookup(config -> List.of(), Duration.ZERO, null);
  }

  /**
   * Lookups by {@code hints} on their own threads.
   *
   * @param hints the lookup itself (the host's sysfs below {@code --host-root})
   * @param limit how long a lookup may take before the container is created without hints
   */
  static DeviceHintLookup of(Function<ContainerConfig, List<TopologyHint>> hints, Duration limit) {
    return new DeviceHintLookup(
        hints,
        limit,
        Executors.newFixedThreadPool(
            THREADS,
            r -> {
              Thread t = new Thread(r, "device-hints");
              t.setDaemon(true); // a thread stuck in the kernel must not keep the JVM alive
              return t;
            }));
  }

  /** The hints of {@code config}'s devices and mounts; none if the lookup fails or is too slow. */
  CompletableFuture<List<TopologyHint>> of(ContainerConfig config) {
    if (config.getDevicesCount() == 0 && config.getMountsCount() == 0) {
      return CompletableFuture.completedFuture(List.of());
    }
    return of(config.getMetadata().getName(), () -> hints.apply(config));
  }

  /**
   * The hints {@code lookup} finds for container {@code name} on a lookup thread; none if it fails
   * or is too slow (logged), or without a host.
   */
  CompletableFuture<List<TopologyHint>> of(String name, Supplier<List<TopologyHint>> lookup) {
    ExecutorService threads = executor;
    if (threads == null) {
      return CompletableFuture.completedFuture(List.of());
    }
    return CompletableFuture.supplyAsync(lookup, threads)
        .orTimeout(limit.toMillis(), TimeUnit.MILLISECONDS)
        .exceptionally(
            e -> {
              LOG.warn(
                  "container {}: no device hints, looking up its devices and mounts failed or took"
                      + " over {} ms: {}",
                  name,
                  limit.toMillis(),
                  e.toString());
              return List.of();
            });
  }
}
