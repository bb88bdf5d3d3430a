package io.criresmgr.agent.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void theDelayDoublesUpToTheMaximum() {
    Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(5));
    assertEquals(Duration.ofSeconds(1), backoff.delay(1));
    assertEquals(Duration.ofSeconds(2), backoff.delay(2));
    assertEquals(Duration.ofSeconds(4), backoff.delay(3));
    assertEquals(Duration.ofSeconds(5), backoff.delay(4));
    assertEquals(Duration.ofSeconds(5), backoff.delay(1000));
  }

  @Test
  void aMaximumBelowTheInitialDelayIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
  }
}
