package io.criresmgr.agent.adjust;

import io.criresmgr.agent.config.ExecutorScheduler;
import io.criresmgr.agent.config.RateLimitedSink;
import io.criresmgr.agent.config.RateLimiter;
import io.criresmgr.agent.kube.AdjustmentApi;
import io.criresmgr.agent.kube.Backoff;
import io.criresmgr.agent.push.DaemonPusher;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The agent's adjustment side, assembled: watch the {@code Adjustment}s of the config namespace →
 * the node's in-scope set, rate-limited → {@code SetAdjustment} on the daemon's config socket → the
 * reply's errors written back to the adjustments' status.
 */
public final class AdjustmentAgent implements AutoCloseable {
  private final ExecutorScheduler scheduler;
  private final StatusWriter writer;
  private final AdjustmentPusher pusher;
  private final AdjustmentWatcher watcher;
  private final AdjustmentTracker tracker;

  private AdjustmentAgent(Settings settings) {
    tracker = new AdjustmentTracker(settings.nodeName());
    scheduler = new ExecutorScheduler("adjustment-updates");
    writer =
        new StatusWriter(
            settings.nodeName(),
            tracker,
            (name, patch) ->
                AdjustmentApi.patchStatus(settings.client(), settings.namespace(), name, patch),
            settings.backoff());
    pusher = AdjustmentPusher.open(settings.configSocket(), settings.retryDelay(), writer::replied);
    RateLimiter<NodeAdjustments> limiter =
        new RateLimiter<>(pusher, scheduler, settings.rateLimit());
    watcher =
        new AdjustmentWatcher(
            settings.client(),
            settings.namespace(),
            tracker,
            limiter.andThen(set -> writer.refresh()),
            settings.backoff());
  }

  /**
   * The adjustment side for node {@code nodeName}, watching {@code namespace} and pushing to the
   * daemon's {@code configSocket} with cri-resmgr-agent's timings; not started yet.
   */
  public static AdjustmentAgent create(
      ApiClient client, String namespace, String nodeName, Path configSocket) {
    return new AdjustmentAgent(
        new Settings(
            client,
            namespace,
            nodeName,
            configSocket,
            RateLimitedSink.DEFAULT_DELAY,
            DaemonPusher.DEFAULT_RETRY_DELAY,
            Backoff.DEFAULT));
  }

  /** The adjustment side with the given settings (tests shorten the delays); not started yet. */
  public static AdjustmentAgent create(Settings settings) {
    return new AdjustmentAgent(settings);
  }

  /** Starts watching (pushes follow once the adjustments have been listed). */
  public void start() {
    watcher.start();
  }

  /**
   * Whether the adjustments have been listed, and which of them are in scope for the node now: what
   * the next push sends. Empty until the first list.
   */
  public Optional<NodeAdjustments> current() {
    synchronized (tracker) {
      return tracker.listed() ? Optional.of(tracker.current()) : Optional.empty();
    }
  }

  /** Stops watching, pushing and writing status. */
  @Override
  public void close() {
    watcher.close();
    scheduler.close();
    pusher.close();
    writer.close();
  }

  /**
   * What the adjustment side needs.
   *
   * @param client the API client
   * @param namespace the namespace of the adjustments (the agent's config namespace)
   * @param nodeName this node
   * @param configSocket the daemon's config socket
   * @param rateLimit delay between a change and its push
   * @param retryDelay delay before a push is tried again after a transport failure
   * @param backoff backoff of the watch and of the status patches after failures
   */
  public record Settings(
      ApiClient client,
      String namespace,
      String nodeName,
      Path configSocket,
      Duration rateLimit,
      Duration retryDelay,
      Backoff backoff) {
    /** Rejects nulls. */
    public Settings {
      Objects.requireNonNull(client, "client");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(nodeName, "nodeName");
      Objects.requireNonNull(configSocket, "configSocket");
      Objects.requireNonNull(rateLimit, "rateLimit");
      Objects.requireNonNull(retryDelay, "retryDelay");
      Objects.requireNonNull(backoff, "backoff");
    }
  }
}
