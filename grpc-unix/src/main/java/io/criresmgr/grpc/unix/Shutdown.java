package io.criresmgr.grpc.unix;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stops a gRPC server, a gRPC channel or an executor in one of three ways, each waiting a bounded
 * time and keeping the caller's interrupt status (an interrupt ends the wait and is set again):
 *
 * <ul>
 *   <li>{@link #gracefully}: stop taking work, wait for the running work, then cancel what is left;
 *   <li>{@link #draining}: stop taking work and wait, never cancelling: for a thread that writes a
 *       file, which an interrupt would close under it;
 *   <li>{@link #now}: cancel at once and wait for the cancellation.
 * </ul>
 */
public final class Shutdown {
  private Shutdown() {}

  /** The three methods {@link ExecutorService}, {@link Server} and {@link ManagedChannel} share. */
  public interface Stoppable {
    /** Takes no new work; running work goes on. */
    void shutdown();

    /** Takes no new work and cancels (interrupts) the running work. */
    void shutdownNow();

    /** Waits up to {@code timeout} for the end; true if it ended. */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException;
  }

  private record Stopping(Runnable stop, Runnable cancel, Awaiting await) implements Stoppable {
    @Override
    public void shutdown() {
      stop.run();
    }

    @Override
    public void shutdownNow() {
      cancel.run();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
      return await.awaitTermination(timeout, unit);
    }
  }

  @FunctionalInterface
  private interface Awaiting {
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException;
  }

  /** {@code executor} as a {@link Stoppable}. */
  public static Stoppable of(ExecutorService executor) {
    return new Stopping(executor::shutdown, executor::shutdownNow, executor::awaitTermination);
  }

  /** {@code server} as a {@link Stoppable}. */
  public static Stoppable of(Server server) {
    return new Stopping(server::shutdown, server::shutdownNow, server::awaitTermination);
  }

  /** {@code channel} as a {@link Stoppable}. */
  public static Stoppable of(ManagedChannel channel) {
    return new Stopping(channel::shutdown, channel::shutdownNow, channel::awaitTermination);
  }

  /**
   * {@link #gracefully(Stoppable, Duration, Duration, Runnable)} that does not wait after
   * cancelling and reports nothing.
   */
  public static void gracefully(Stoppable target, Duration grace) {
    gracefully(target, grace, Duration.ZERO, () -> {});
  }

  /**
   * Stops taking work and waits up to {@code grace} for the running work; if it has not ended, runs
   * {@code onTimeout} (to say what is lost), cancels the rest and waits up to {@code afterCancel}
   * (zero: not at all) for the cancellation. Interrupted, it cancels at once and returns.
   */
  public static void gracefully(
      Stoppable target, Duration grace, Duration afterCancel, Runnable onTimeout) {
    target.shutdown();
    try {
      if (!await(target, grace)) {
        onTimeout.run();
        target.shutdownNow();
        if (!afterCancel.isZero()) {
          await(target, afterCancel);
        }
      }
    } catch (InterruptedException e) {
      target.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops taking work and waits up to {@code limit} for the running work, which is never cancelled.
   *
   * @return whether it ended in time; false too if interrupted (the interrupt status is set)
   */
  public static boolean draining(Stoppable target, Duration limit) {
    target.shutdown();
    try {
      return await(target, limit);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Cancels every target at once, in order, then waits up to {@code limit} for each in turn. */
  public static void now(Duration limit, Stoppable... targets) {
    for (Stoppable t : targets) {
      t.shutdownNow();
    }
    try {
      for (Stoppable t : targets) {
        await(t, limit);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean await(Stoppable target, Duration limit) throws InterruptedException {
    return target.awaitTermination(limit.toMillis(), TimeUnit.MILLISECONDS);
  }
}
