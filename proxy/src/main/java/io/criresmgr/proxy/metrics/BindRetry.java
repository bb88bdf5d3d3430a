package io.criresmgr.proxy.metrics;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Retries binding the HTTP endpoint after {@link #FIRST}, doubling the wait up to {@link #LAST},
 * until an attempt succeeds or is {@link #cancel}led. The thread {@code metrics-http-retry} exists
 * only while a retry is pending.
 */
final class BindRetry implements AutoCloseable {
  static final Duration FIRST = Duration.ofSeconds(5);
  static final Duration LAST = Duration.ofSeconds(30);

  private final Predicate<String> attempt;
  private @Nullable ScheduledExecutorService timer;
  private @Nullable ScheduledFuture<?> next;
  private boolean closed;

  /** {@code attempt} tries an endpoint and says whether to stop. */
  BindRetry(Predicate<String> attempt) {
    this.attempt = attempt;
  }

  /** Starts retrying {@code endpoint}, replacing a pending retry. */
  synchronized void schedule(String endpoint) {
    cancel();
    if (!closed) {
      schedule(endpoint, FIRST);
    }
  }

  private synchronized void schedule(String endpoint, Duration wait) {
    if (timer == null) {
      ScheduledThreadPoolExecutor t =
          new ScheduledThreadPoolExecutor(1, new DefaultThreadFactory("metrics-http-retry", true));
      t.setRemoveOnCancelPolicy(true);
      timer = t;
    }
    next = timer.schedule(() -> run(endpoint, wait), wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void run(String endpoint, Duration wait) {
    boolean done = attempt.test(endpoint);
    synchronized (this) {
      next = null;
      if (done || closed) {
        stopTimer();
      } else {
        Duration doubled = wait.multipliedBy(2);
        schedule(endpoint, doubled.compareTo(LAST) > 0 ? LAST : doubled);
      }
    }
  }

  /** Whether a retry is pending. */
  synchronized boolean pending() {
    return next != null;
  }

  /** Drops a pending retry. */
  synchronized void cancel() {
    if (next != null) {
      next.cancel(false);
      next = null;
    }
    stopTimer();
  }

  private void stopTimer() {
    if (timer != null) {
      timer.shutdown();
      timer = null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    cancel();
  }
}
