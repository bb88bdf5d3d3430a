package io.criresmgr.agent.config;

import java.time.Duration;

/**
 * A {@link ConfigSink} in front of another, through a {@link RateLimiter}: at most one delivery per
 * delay (cri-resmgr-agent waits 2 s), the latest configuration only, and only if changed.
 */
public final class RateLimitedSink implements ConfigSink {
  /** cri-resmgr-agent's delay between a change and its push. */
  public static final Duration DEFAULT_DELAY = Duration.ofSeconds(2);

  private final RateLimiter<ChosenConfig> limiter;

  /** Delivers to {@code sink}, {@code delay} after the first of a burst, via {@code scheduler}. */
  public RateLimitedSink(ConfigSink sink, Scheduler scheduler, Duration delay) {
    limiter = new RateLimiter<>(sink::accept, scheduler, delay);
  }

  /** Remembers {@code config} and, if no delivery is due yet, schedules one. */
  @Override
  public void accept(ChosenConfig config) {
    limiter.accept(config);
  }
}
