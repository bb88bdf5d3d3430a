package io.criresmgr.agent.config;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Passes configurations on to a sink at most once per delay (cri-resmgr-agent waits 2 s), and only
 * the latest one, and only if it differs from what the sink got last: a burst of ConfigMap edits
 * becomes one update.
 */
public final class RateLimitedSink implements ConfigSink {
  /** cri-resmgr-agent's delay between a change and its push. */
  public static final Duration DEFAULT_DELAY = Duration.ofSeconds(2);

  private final ConfigSink sink;
  private final Scheduler scheduler;
  private final Duration delay;
  private @Nullable ChosenConfig pending;
  private @Nullable ChosenConfig delivered;

  /** Delivers to {@code sink}, {@code delay} after the first of a burst, via {@code scheduler}. */
  public RateLimitedSink(ConfigSink sink, Scheduler scheduler, Duration delay) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.delay = Objects.requireNonNull(delay, "delay");
  }

  /** Remembers {@code config} and, if no delivery is due yet, schedules one. */
  @Override
  public void accept(ChosenConfig config) {
    Objects.requireNonNull(config, "config");
    boolean schedule;
    synchronized (this) {
      schedule = pending == null;
      pending = config;
    }
    if (schedule) {
      scheduler.schedule(this::deliver, delay);
    }
  }

  private void deliver() {
    ChosenConfig config;
    synchronized (this) {
      config = pending;
      pending = null;
      if (config == null || config.equals(delivered)) {
        return;
      }
      delivered = config;
    }
    sink.accept(config);
  }
}
