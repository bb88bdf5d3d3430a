package io.criresmgr.agent.adjust;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.criresmgr.agent.kube.Backoff;
import io.kubernetes.client.openapi.ApiException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the daemon's answer back to the adjustments: every adjustment of the pushed set gets the
 * reply's errors as {@code status.nodes.<node>.errors} (an empty map when all went well), and an
 * adjustment no longer in scope loses its {@code status.nodes.<node>} entry, and an adjustment that
 * does not parse gets {@code {"request": <why>}} if its scope covers the node (else no entry). Only
 * entries that would change are patched (JSON merge patch of the status subresource). Failed
 * patches are tried again with backoff, the latest answer winning; an outage is logged once.
 */
public final class StatusWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StatusWriter.class);
  private static final Gson WITH_NULLS = new GsonBuilder().serializeNulls().create();
  private static final int NOT_FOUND = 404;

  private final String nodeName;
  private final AdjustmentTracker tracker;
  private final StatusPatcher patcher;
  private final Backoff backoff;
  private final ScheduledExecutorService executor;
  // Used only on the executor's thread.
  private Set<String> pushed = Set.of();
  private Map<String, String> errors = Map.of();
  private int failures;
  private boolean retryDue;

  /**
   * Writes for node {@code nodeName} what {@code tracker} says needs writing, via {@code patcher}.
   */
  public StatusWriter(
      String nodeName, AdjustmentTracker tracker, StatusPatcher patcher, Backoff backoff) {
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.tracker = Objects.requireNonNull(tracker, "tracker");
    this.patcher = Objects.requireNonNull(patcher, "patcher");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "adjustment-status");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** The daemon answered {@code errors} for the set {@code adjustments}; returns at once. */
  public void replied(NodeAdjustments adjustments, Map<String, String> errors) {
    Set<String> names = Set.copyOf(adjustments.names());
    Map<String, String> copy = Map.copyOf(errors);
    try {
      executor.execute(
          () -> {
            pushed = names;
            this.errors = copy;
            sync();
          });
    } catch (RejectedExecutionException e) {
      log.debug("status writer stopped; dropped an answer");
    }
  }

  /**
   * The adjustments changed: writes what changed without waiting for the daemon (invalid objects
   * never reach it); returns at once.
   */
  public void refresh() {
    try {
      executor.execute(this::sync);
    } catch (RejectedExecutionException e) {
      log.debug("status writer stopped; no refresh");
    }
  }

  private void sync() {
    Set<String> inScope = tracker.current().names();
    Map<String, Optional<Map<String, String>>> invalid = tracker.invalidStatus();
    try {
      for (Map.Entry<String, Optional<Map<String, String>>> e : tracker.nodeStatus().entrySet()) {
        Optional<Map<String, String>> wanted =
            invalid.getOrDefault(
                e.getKey(), pushed.contains(e.getKey()) ? Optional.of(errors) : Optional.empty());
        // In scope but not sent yet: its entry waits for the answer that includes it.
        boolean pending = !pushed.contains(e.getKey()) && inScope.contains(e.getKey());
        if (!pending && !wanted.equals(e.getValue())) {
          patch(e.getKey(), patchOf(e.getValue(), wanted));
        }
      }
      recovered();
    } catch (ApiException | RuntimeException e) {
      failed(e);
    }
  }

  private void patch(String name, String mergePatch) throws ApiException {
    try {
      tracker.patched(patcher.patch(name, mergePatch));
    } catch (ApiException e) {
      if (e.getCode() != NOT_FOUND) {
        throw e;
      }
      log.debug("adjustment {} is gone; no status to write", name);
    }
  }

  /** The patch turning the node's entry {@code now} into {@code wanted}. */
  String patchOf(Optional<Map<String, String>> now, Optional<Map<String, String>> wanted) {
    JsonObject nodes = new JsonObject();
    if (wanted.isEmpty()) {
      nodes.add(nodeName, JsonNull.INSTANCE);
    } else {
      JsonObject errorsJson = new JsonObject();
      now.orElse(Map.of()).keySet().forEach(k -> errorsJson.add(k, JsonNull.INSTANCE));
      wanted.get().forEach(errorsJson::addProperty);
      JsonObject entry = new JsonObject();
      entry.add("errors", errorsJson);
      nodes.add(nodeName, entry);
    }
    JsonObject status = new JsonObject();
    status.add("nodes", nodes);
    JsonObject patch = new JsonObject();
    patch.add("status", status);
    return WITH_NULLS.toJson(patch);
  }

  private void recovered() {
    if (failures > 0) {
      log.info("wrote the adjustments' status again after {} failed attempt(s)", failures);
    }
    failures = 0;
  }

  private void failed(Exception e) {
    failures++;
    String why = describe(e);
    if (failures == 1) {
      log.warn("cannot write the adjustments' status ({}); retrying with backoff", why);
    } else {
      log.debug("writing the adjustments' status failed again ({})", why);
    }
    if (!retryDue) {
      retryDue = true;
      long delay = backoff.delay(failures).toNanos();
      try {
        // The retry reports its own outcome (it logs and schedules again); nobody waits for it.
        var unused = executor.schedule(this::retry, delay, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException stopped) {
        log.debug("status writer stopped; no retry");
      }
    }
  }

  /** One line: client-java's messages span lines (HTTP code 0: no answer). */
  private static String describe(Exception e) {
    if (e instanceof ApiException api && api.getCode() != 0) {
      String body = api.getResponseBody();
      return "HTTP " + api.getCode() + (body == null ? "" : ": " + body.strip());
    }
    return e.getCause() == null ? e.toString() : e.getCause().toString();
  }

  private void retry() {
    retryDue = false;
    sync();
  }

  /** Stops writing; pending patches are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
