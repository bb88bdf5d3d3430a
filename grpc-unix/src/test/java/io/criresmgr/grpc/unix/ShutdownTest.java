package io.criresmgr.grpc.unix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Shutdown}: what each way calls, in which order, and what an interrupt does. */
class ShutdownTest {
  private static final Duration GRACE = Duration.ofSeconds(5);

  /** Records calls; each wait answers the next of the given results ("interrupt": throws). */
  private static final class Recorder implements Shutdown.Stoppable {
    final List<String> calls;
    final String name;
    final Deque<String> waits;

    Recorder(String... waits) {
      this(new ArrayList<>(), "", waits);
    }

    Recorder(List<String> calls, String name, String... waits) {
      this.calls = calls;
      this.name = name;
      this.waits = new ArrayDeque<>(List.of(waits));
    }

    @Override
    public void shutdown() {
      calls.add(name + "shutdown");
    }

    @Override
    public void shutdownNow() {
      calls.add(name + "shutdownNow");
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
      calls.add(name + "await " + unit.toMillis(timeout));
      String next = waits.remove();
      if (next.equals("interrupt")) {
        throw new InterruptedException();
      }
      return Boolean.parseBoolean(next);
    }
  }

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void gracefullyWaitsAndStopsThere() {
    Recorder r = new Recorder("true");
    Shutdown.gracefully(r, GRACE, Duration.ofSeconds(1), () -> r.calls.add("timeout"));
    assertEquals(List.of("shutdown", "await 5000"), r.calls);
  }

  @Test
  void gracefullyReportsAndCancelsWhatOutlivesTheGrace() {
    Recorder r = new Recorder("false", "true");
    Shutdown.gracefully(r, GRACE, Duration.ofSeconds(1), () -> r.calls.add("timeout"));
    assertEquals(
        List.of("shutdown", "await 5000", "timeout", "shutdownNow", "await 1000"), r.calls);
  }

  @Test
  void gracefullyWithoutAWaitAfterCancelling() {
    Recorder r = new Recorder("false");
    Shutdown.gracefully(r, GRACE);
    assertEquals(List.of("shutdown", "await 5000", "shutdownNow"), r.calls);
  }

  @Test
  void anInterruptedGracefulStopCancelsAtOnceAndKeepsTheInterrupt() {
    Recorder r = new Recorder("interrupt");
    Shutdown.gracefully(r, GRACE, Duration.ofSeconds(1), () -> r.calls.add("timeout"));
    assertEquals(List.of("shutdown", "await 5000", "shutdownNow"), r.calls);
    assertTrue(Thread.currentThread().isInterrupted());
  }

  @Test
  void drainingNeverCancels() {
    Recorder late = new Recorder("false");
    assertFalse(Shutdown.draining(late, GRACE));
    assertEquals(List.of("shutdown", "await 5000"), late.calls);
    Recorder interrupted = new Recorder("interrupt");
    assertFalse(Shutdown.draining(interrupted, GRACE));
    assertEquals(List.of("shutdown", "await 5000"), interrupted.calls);
    assertTrue(Thread.currentThread().isInterrupted());
  }

  @Test
  void nowCancelsEveryTargetBeforeWaitingForAny() {
    List<String> calls = new ArrayList<>();
    Shutdown.now(GRACE, new Recorder(calls, "a ", "true"), new Recorder(calls, "b ", "true"));
    assertEquals(List.of("a shutdownNow", "b shutdownNow", "a await 5000", "b await 5000"), calls);
  }

  @Test
  void anInterruptedStopNowKeepsTheInterruptAndSkipsTheRestOfTheWaits() {
    List<String> calls = new ArrayList<>();
    Shutdown.now(GRACE, new Recorder(calls, "a ", "interrupt"), new Recorder(calls, "b "));
    assertEquals(List.of("a shutdownNow", "b shutdownNow", "a await 5000"), calls);
    assertTrue(Thread.currentThread().isInterrupted());
  }

  @Test
  void aRealExecutorIsInterruptedOnlyAfterTheGrace() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    executor.execute(
        () -> {
          started.countDown();
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
        });
    started.await();
    List<String> reports = new ArrayList<>();
    Shutdown.gracefully(
        Shutdown.of(executor), Duration.ofMillis(50), GRACE, () -> reports.add("timeout"));
    assertEquals(List.of("timeout"), reports);
    assertTrue(interrupted.await(5, TimeUnit.SECONDS));
    assertTrue(executor.isTerminated());
  }

  @Test
  void drainingLetsARealTaskFinish() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    CountDownLatch release = new CountDownLatch(1);
    executor.execute(
        () -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new AssertionError("interrupted", e);
          }
        });
    assertFalse(Shutdown.draining(Shutdown.of(executor), Duration.ofMillis(50)));
    assertFalse(executor.isTerminated());
    release.countDown();
    assertTrue(executor.awaitTermination(5, TimeUnit.SECONDS));
  }
}
