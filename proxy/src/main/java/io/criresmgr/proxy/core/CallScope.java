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
  // The log context's keys and values, in step: put into the MDC at every logged call without the
  // entry set and iterator a Map.forEach of an immutable map makes (docs/benchmarks.md, "Issue 20:
  // bytes per decision").
  private final String[] logKeys;
  private final String[] logValues;
  private final AtomicLong runtimeNanos = new AtomicLong();

  private CallScope(@Nullable Deadline deadline, Map<String, String> log) {
    this.deadline = deadline;
    this.log = Map.copyOf(log);
    this.logKeys = new String[this.log.size()];
    this.logValues = new String[this.log.size()];
    int i = 0;
    for (Map.Entry<String, String> e : this.log.entrySet()) {
      logKeys[i] = e.getKey();
      logValues[i] = e.getValue();
      i++;
    }
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
    if (logKeys.length == 0) {
      return work.get();
    }
    Map<String, String> before = MDC.getCopyOfContextMap();
    for (int i = 0; i < logKeys.length; i++) {
      MDC.put(logKeys[i], logValues[i]);
    }
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
