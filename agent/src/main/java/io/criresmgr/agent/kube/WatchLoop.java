package io.criresmgr.agent.kube;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.Watch;
import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists, then watches, one kind of object for as long as it runs: when the watch ends or fails, or
 * the API server cannot be reached, it waits (with backoff while failures repeat) and lists again,
 * so what it missed in between is caught up. It never gives up; {@link #close} stops it.
 */
public final class WatchLoop<T> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WatchLoop.class);
  private static final int GONE = 410;

  private final String what;
  private final ListWatch<T> source;
  private final ObjectHandler<T> handler;
  private final Backoff backoff;
  private final Thread thread;
  private volatile boolean closed;
  private @Nullable Watch<T> watch;
  private int failures;

  /** A loop, not yet started, feeding {@code handler} with {@code what} from {@code source}. */
  public WatchLoop(String what, ListWatch<T> source, ObjectHandler<T> handler, Backoff backoff) {
    this.what = Objects.requireNonNull(what, "what");
    this.source = Objects.requireNonNull(source, "source");
    this.handler = Objects.requireNonNull(handler, "handler");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.thread = new Thread(this::run, "watch " + what);
    thread.setDaemon(true);
  }

  /** Starts listing and watching on a thread of its own. */
  public void start() {
    thread.start();
  }

  private void run() {
    while (!closed) {
      try {
        listAndWatch();
      } catch (ApiException | IOException | RuntimeException e) {
        failed(e);
      }
      if (!closed) {
        pause();
      }
    }
  }

  private void listAndWatch() throws ApiException, IOException {
    Listing<T> listing = source.list();
    handler.replaceAll(listing.items());
    try (Watch<T> opened = open(listing.resourceVersion())) {
      for (Watch.Response<T> event : opened) {
        if (closed) {
          return;
        }
        boolean goOn = handle(event);
        recovered();
        if (!goOn) {
          return;
        }
      }
    }
    recovered();
  }

  /**
   * A watch delivered an event or ran to its end: the outage, if any, is over. A list alone does
   * not end it, so that a watch failing right after each list still backs off.
   */
  private void recovered() {
    if (failures > 0) {
      log.info("{}: watching again after {} failed attempt(s)", what, failures);
      failures = 0;
    }
  }

  private synchronized Watch<T> open(String version) throws ApiException, IOException {
    Watch<T> opened = source.watch(version);
    watch = opened;
    if (closed) {
      opened.close(); // close() ran while the watch was being opened
    }
    return opened;
  }

  /** Applies one event; false if the watch must be given up (re-list). */
  private boolean handle(Watch.Response<T> event) {
    switch (event.type) {
      case "ADDED", "MODIFIED" -> handler.changed(Objects.requireNonNull(event.object));
      case "DELETED" -> handler.deleted(Objects.requireNonNull(event.object));
      case "ERROR" -> {
        Integer code = event.status == null ? null : event.status.getCode();
        if (code == null || code != GONE) {
          throw new IllegalStateException("watch error " + describe(event));
        }
        log.debug("{}: watch expired ({}), re-listing", what, describe(event));
        return false;
      }
      default -> log.debug("{}: ignoring {} event", what, event.type);
    }
    return true;
  }

  private static String describe(Watch.Response<?> event) {
    return event.status == null
        ? "(no status)"
        : event.status.getCode() + " " + event.status.getMessage();
  }

  private void failed(Exception e) {
    if (closed) {
      return;
    }
    failures++;
    String why = describe(e);
    if (failures == 1) {
      log.warn("{}: list/watch failed, will retry with backoff: {}", what, why);
    } else {
      log.debug("{}: retry {} failed: {}", what, failures - 1, why);
    }
  }

  /** One line: client-java's messages span lines and hide the cause (HTTP code 0: no answer). */
  private static String describe(Exception e) {
    Throwable cause = e.getCause();
    if (e instanceof ApiException api && api.getCode() != 0) {
      String body = api.getResponseBody();
      return "HTTP " + api.getCode() + (body == null ? "" : ": " + body.strip());
    }
    return cause == null ? e.toString() : cause.toString();
  }

  private void pause() {
    try {
      Thread.sleep(backoff.delay(Math.max(1, failures)).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  /** Stops the loop: closes the open watch and waits briefly for the thread to end. */
  @Override
  public void close() {
    closed = true;
    synchronized (this) {
      if (watch != null) {
        try {
          watch.close();
        } catch (IOException | RuntimeException e) {
          // Closing discards the rest of the response while the loop thread may be reading it:
          // okhttp then fails in the socket read (seen: IndexOutOfBoundsException in CI). The
          // watch is gone either way, and the thread is interrupted below.
          log.debug("{}: closing the watch: {}", what, e.toString());
        }
      }
    }
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
