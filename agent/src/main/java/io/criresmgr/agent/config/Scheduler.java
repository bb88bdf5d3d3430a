package io.criresmgr.agent.config;

import java.time.Duration;

/** Runs a task once after a delay; tests substitute one that runs tasks on demand. */
@FunctionalInterface
public interface Scheduler {
  /** Runs {@code task} once, {@code delay} from now, on the scheduler's thread. */
  void schedule(Runnable task, Duration delay);
}
