package io.criresmgr.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * A policy's request to be called back: after {@code delay}, the pipeline delivers {@code event} to
 * the active policy's {@link Policy#handleEvent}. Timers are not persisted; a policy must cope with
 * a timer that never fires (daemon restart) and with one for a container that is gone.
 *
 * @param delay how long to wait, not negative
 * @param event what to deliver
 */
public record PolicyTimer(Duration delay, PolicyEvent event) {
  /** Checks for nulls and a negative delay. */
  public PolicyTimer {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(event, "event");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative timer delay " + delay);
    }
  }
}
