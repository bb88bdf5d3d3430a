package io.criresmgr.sim;

import java.time.Clock;
import java.time.Instant;

/** CRI timestamps: nanoseconds since the Unix epoch. */
final class Timestamps {
  private Timestamps() {}

  /** Returns the clock's current time in nanoseconds. */
  static long nanos(Clock clock) {
    Instant now = clock.instant();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
