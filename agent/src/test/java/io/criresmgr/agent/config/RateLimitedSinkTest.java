package io.criresmgr.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateLimitedSinkTest {
  private static final ChosenConfig A = ChosenConfig.of("a", Map.of("policy", "a"));
  private static final ChosenConfig B = ChosenConfig.of("b", Map.of("policy", "b"));

  private final List<Runnable> due = new ArrayList<>();
  private final List<Duration> delays = new ArrayList<>();
  private final RecordingSink target = new RecordingSink();
  private final RateLimitedSink sink =
      new RateLimitedSink(
          target,
          (task, delay) -> {
            due.add(task);
            delays.add(delay);
          },
          Duration.ofSeconds(2));

  @Test
  void aBurstIsDeliveredOnceAfterTheDelayWithTheLatestConfig() {
    sink.accept(A);
    sink.accept(B);
    sink.accept(A);
    assertEquals(List.of(Duration.ofSeconds(2)), delays);
    assertEquals(List.of(), target.received);
    runDue();
    assertEquals(List.of(A), target.received);
  }

  @Test
  void anUnchangedConfigIsNotDeliveredAgain() {
    sink.accept(A);
    runDue();
    sink.accept(B);
    sink.accept(A);
    runDue();
    sink.accept(B);
    runDue();
    assertEquals(List.of(A, B), target.received);
  }

  private void runDue() {
    List<Runnable> now = List.copyOf(due);
    due.clear();
    now.forEach(Runnable::run);
  }
}
