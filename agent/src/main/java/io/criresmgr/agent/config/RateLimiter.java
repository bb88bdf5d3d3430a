package io.criresmgr.agent.config;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Passes values on to a consumer at most once per delay, only the latest one, and only if it
 * differs from what the consumer got last: a burst of changes becomes one update. Used for the
 * chosen configuration and for the node's adjustments alike.
 *
 * @param <T> the value, compared with {@code equals}
 */
public final class RateLimiter<T> implements Consumer<T> {
  private final Consumer<T> target;
  private final Scheduler scheduler;
  private final Duration delay;
  private @Nullable T pending;
  private @Nullable T delivered;

  /**
   * Delivers to {@code target}, {@code delay} after the first of a burst, via {@code scheduler}.
   */
  public RateLimiter(Consumer<T> target, Scheduler scheduler, Duration delay) {
    this.target = Objects.requireNonNull(target, "target");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.delay = Objects.requireNonNull(delay, "delay");
  }

  /** Remembers {@code value} and, if no delivery is due yet, schedules one. */
  @Override
  public void accept(T value) {
    Objects.requireNonNull(value, "value");
    boolean schedule;
    synchronized (this) {
      schedule = pending == null;
      pending = value;
    }
    if (schedule) {
      scheduler.schedule(this::deliver, delay);
    }
  }

  private void deliver() {
    T value;
    synchronized (this) {
      value = pending;
      pending = null;
      if (value == null || value.equals(delivered)) {
        return;
      }
      delivered = value;
    }
    target.accept(value);
  }
}
