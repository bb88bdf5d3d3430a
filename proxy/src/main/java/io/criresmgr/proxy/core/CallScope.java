package io.criresmgr.proxy.core;

import io.grpc.Context;
import io.grpc.Deadline;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * One intercepted call's context that must survive thread hops: the client's deadline (gRPC's
 * {@link Context} does not follow the call onto the pipeline thread), the time spent waiting for
 * the runtime, and the log context that every log line of the call carries (the SLF4J MDC keys
 * {@link RequestLog#METHOD}, {@link RequestLog#POD} and {@link RequestLog#CONTAINER}; MDC is per
 * thread, so it is set again on every thread the call's work runs on).
 */
public final class CallScope {
  private final @Nullable Deadline deadline;
  private final Map<String, String> log;
  private final AtomicLong runtimeNanos = new AtomicLong();

  private CallScope(@Nullable Deadline deadline, Map<String, String> log) {
    this.deadline = deadline;
    this.log = Map.copyOf(log);
  }

  /**
   * Captures the current gRPC context's deadline, with the log context of CRI request {@code
   * request} of method {@code method}; call on the transport thread.
   */
  public static CallScope current(String method, Object request) {
    return new CallScope(Context.current().getDeadline(), RequestLog.of(method, request));
  }

  /**
   * The scope of CRI request {@code request} of method {@code method} that did not arrive over gRPC
   * (the NRI front end, docs/nri.md): no deadline, the request's log context.
   */
  public static CallScope of(String method, Object request) {
    return new CallScope(null, RequestLog.of(method, request));
  }

  /** A scope without deadline and log context, for the daemon's own work and tests. */
  public static CallScope none() {
    return new CallScope(null, Map.of());
  }

  /** The client's deadline, if it gave one. */
  public @Nullable Deadline deadline() {
    return deadline;
  }

  /** The call's log context: MDC key to value. */
  public Map<String, String> log() {
    return log;
  }

  /**
   * Runs {@code work} with the call's log context in this thread's MDC, then puts back what was
   * there.
   */
  public <T> T logged(Supplier<T> work) {
    if (log.isEmpty()) {
      return work.get();
    }
    Map<String, String> before = MDC.getCopyOfContextMap();
    log.forEach(MDC::put);
    try {
      return work.get();
    } finally {
      if (before == null) {
        MDC.clear();
      } else {
        MDC.setContextMap(before);
      }
    }
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
