package io.criresmgr.proxy.pipeline;

import io.grpc.Context;
import io.grpc.Deadline;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One intercepted call's context that must survive thread hops: the client's deadline (gRPC's
 * {@link Context} does not follow the call onto the pipeline thread) and the time spent waiting for
 * the runtime.
 */
public final class CallScope {
  private final @Nullable Deadline deadline;
  private final AtomicLong runtimeNanos = new AtomicLong();

  private CallScope(@Nullable Deadline deadline) {
    this.deadline = deadline;
  }

  /** Captures the current gRPC context's deadline; call on the transport thread. */
  public static CallScope current() {
    return new CallScope(Context.current().getDeadline());
  }

  /** A scope without deadline, for the daemon's own work and tests. */
  public static CallScope none() {
    return new CallScope(null);
  }

  /** The client's deadline, if it gave one. */
  public @Nullable Deadline deadline() {
    return deadline;
  }

  /** Adds the time until {@code call} completes to the runtime time; returns it. */
  public <T> CompletableFuture<T> timed(CompletableFuture<T> call) {
    long start = System.nanoTime();
    return call.whenComplete((v, e) -> runtimeNanos.addAndGet(System.nanoTime() - start));
  }

  /** Time spent waiting for the runtime so far. */
  public long runtimeNanos() {
    return runtimeNanos.get();
  }
}
