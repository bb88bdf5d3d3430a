package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting in integration tests for what other threads and processes do. */
public final class Eventually {
  private Eventually() {}

  /** Waits up to 10 s for {@code condition}, polling every 20 ms; fails the test otherwise. */
  public static void await(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        fail("condition not met within 10 s");
      }
      Thread.sleep(20);
    }
  }
}
