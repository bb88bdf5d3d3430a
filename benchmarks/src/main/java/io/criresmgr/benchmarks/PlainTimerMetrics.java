package io.criresmgr.benchmarks;

import io.criresmgr.proxy.relay.RelayListener;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * A what-if variant of the daemon's {@code RelayMetrics} for one method, for comparison only: the
 * same counter and two timers per call, but the timers publish no client-side percentiles (a
 * Prometheus histogram or summary without them is what {@code histogram_quantile} would use).
 */
final class PlainTimerMetrics implements RelayListener {
  private final Counter calls;
  private final Timer proxy;
  private final Timer runtime;

  PlainTimerMetrics(MeterRegistry registry) {
    calls = Counter.builder("bench.requests").tag("code", "OK").register(registry);
    proxy = Timer.builder("bench.latency").tag("part", "proxy").register(registry);
    runtime = Timer.builder("bench.latency").tag("part", "runtime").register(registry);
  }

  @Override
  public CallTrace callStarted(String fullMethodName) {
    return new CallTrace() {
      @Override
      public void closed(Status status, long totalNanos, long runtimeNanos) {
        calls.increment();
        runtime.record(runtimeNanos, TimeUnit.NANOSECONDS);
        proxy.record(totalNanos - runtimeNanos, TimeUnit.NANOSECONDS);
      }
    };
  }
}
