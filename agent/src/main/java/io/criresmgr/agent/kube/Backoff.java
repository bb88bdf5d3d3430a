package io.criresmgr.agent.kube;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a {@link WatchLoop} waits before it re-lists after a failure: {@code initial}, doubled
 * after each failure in a row, at most {@code max}.
 *
 * @param initial the first delay (cri-resmgr-agent re-opens watches after 1 s)
 * @param max the longest delay
 */
public record Backoff(Duration initial, Duration max) {
  /** One second, doubling up to 30 s. */
  public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

  /** Rejects a non-positive initial delay and a maximum below it. */
  public Backoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("invalid backoff " + initial + " up to " + max);
    }
  }

  /** The delay after {@code failures} (at least 1) failures in a row. */
  public Duration delay(int failures) {
    Duration delay = initial;
    for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) < 0 ? delay : max;
  }
}
