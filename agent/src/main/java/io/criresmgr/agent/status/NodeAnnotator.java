package io.criresmgr.agent.status;

import io.criresmgr.agent.kube.Backoff;
import io.criresmgr.agent.kube.NodeApi;
import io.criresmgr.agent.push.ConfigStatus;
import io.kubernetes.client.openapi.ApiException;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the Node's {@link ConfigAnnotations} in line with the configuration status: one JSON merge
 * patch whenever the annotations change, on a thread of its own (so the pusher never waits for the
 * API server). A failed patch is tried again with backoff, always with the latest annotations; the
 * first failure of an outage is logged as a warning, the recovery at info level.
 */
public final class NodeAnnotator implements Consumer<ConfigStatus>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeAnnotator.class);

  private final NodeApi node;
  private final Backoff backoff;
  private final ScheduledExecutorService executor;
  // Used only on the executor's thread.
  private @Nullable ConfigAnnotations wanted;
  private @Nullable ConfigAnnotations applied;
  private boolean retrying;
  private int failures;

  /** Annotates {@code node}, retrying failed patches with {@code backoff}. */
  public NodeAnnotator(NodeApi node, Backoff backoff) {
    this.node = Objects.requireNonNull(node, "node");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "node-annotations");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Annotates the Node with {@code status} unless it is pending; returns at once. */
  @Override
  public void accept(ConfigStatus status) {
    if (status.verdict() == ConfigStatus.Verdict.PENDING) {
      return;
    }
    ConfigAnnotations next = ConfigAnnotations.of(status);
    run(
        () -> {
          wanted = next;
          patchIfDue();
        });
  }

  private void patchIfDue() {
    ConfigAnnotations next = wanted;
    if (retrying || next == null || next.equals(applied)) {
      return;
    }
    try {
      node.mergePatch(next.mergePatch());
      applied = next;
      if (failures > 0) {
        log.info("annotated node {} again after {} failed attempt(s)", node.nodeName(), failures);
      }
      failures = 0;
      log.debug("annotated node {}: {}", node.nodeName(), next);
    } catch (ApiException e) {
      failed(e);
    }
  }

  private void failed(ApiException e) {
    failures++;
    if (failures == 1) {
      log.warn(
          "cannot annotate node {} with the configuration status, retrying with backoff: {}",
          node.nodeName(),
          NodeApi.describe(e));
    } else {
      log.debug("annotating node {} failed again: {}", node.nodeName(), NodeApi.describe(e));
    }
    retrying = true;
    try {
      // The retry reports its own outcome (patchIfDue logs and schedules again); nobody waits.
      var unused =
          executor.schedule(
              () -> {
                retrying = false;
                patchIfDue();
              },
              backoff.delay(failures).toNanos(),
              TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException stopped) {
      log.debug("node annotations stopped; no retry");
    }
  }

  private void run(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      log.debug("node annotations stopped; dropped a status");
    }
  }

  /** Stops annotating; a patch under way is abandoned. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
