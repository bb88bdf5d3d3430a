package io.criresmgr.agent.config;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link Scheduler} on one daemon thread; a failing task is logged and does not stop it. */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ExecutorScheduler.class);

  private final ScheduledExecutorService executor;

  /** A scheduler whose thread is called {@code name}. */
  public ExecutorScheduler(String name) {
    executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, name);
              thread.setDaemon(true);
              return thread;
            });
  }

  @Override
  public void schedule(Runnable task, Duration delay) {
    // The task logs its own failure (runLogged); nobody waits for it.
    var unused = executor.schedule(() -> runLogged(task), delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static void runLogged(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      log.error("scheduled task failed", e);
    }
  }

  /** Drops pending tasks and stops the thread. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
