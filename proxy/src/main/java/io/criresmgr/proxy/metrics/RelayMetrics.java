package io.criresmgr.proxy.metrics;

import io.criresmgr.proxy.dump.MessageCatalog;
import io.criresmgr.proxy.relay.RelayListener;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Per-method call counts by status code, error counts, and latency split into the time spent in the
 * proxy and the time spent waiting for the runtime (cri-resmgr's {@code collectStatistics}).
 *
 * <p>Metric names (Prometheus): {@code cri_requests_total{service,method,code}}, {@code
 * cri_request_errors_total{service,method,code}} and {@code
 * cri_request_latency_seconds{service,method,part="proxy"|"runtime"}}. Methods our proto does not
 * know are counted as method {@code "unknown"} so that clients cannot blow up the label set.
 */
public final class RelayMetrics implements RelayListener {
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(100_000),
    Duration.ofNanos(250_000),
    Duration.ofNanos(500_000),
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofSeconds(2),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10),
  };

  private final MeterRegistry registry;
  private final MessageCatalog catalog;
  private final Map<String, MethodMeters> meters = new ConcurrentHashMap<>();

  /** Registers meters lazily in {@code registry}. */
  public RelayMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.catalog = MessageCatalog.cri();
  }

  @Override
  public CallTrace callStarted(String fullMethodName) {
    MethodMeters m = meters.computeIfAbsent(label(fullMethodName), MethodMeters::new);
    return new CallTrace() {
      @Override
      public boolean observesMessages() {
        return false;
      }

      @Override
      public void closed(Status status, long totalNanos, long runtimeNanos) {
        m.record(status.getCode(), totalNanos, runtimeNanos);
      }
    };
  }

  private String label(String fullMethodName) {
    return catalog.knows(fullMethodName) ? fullMethodName : "unknown/unknown";
  }

  /** The meters of one method; counters per status code are created on first use. */
  private final class MethodMeters {
    private final String service;
    private final String method;
    private final Timer proxy;
    private final Timer runtime;
    private final Map<Status.Code, Counter> calls = new ConcurrentHashMap<>();
    private final Map<Status.Code, Counter> errors = new ConcurrentHashMap<>();

    MethodMeters(String fullMethodName) {
      String fullService = MethodDescriptor.extractFullServiceName(fullMethodName);
      this.service = fullService == null ? "unknown" : simpleName(fullService);
      this.method = fullMethodName.substring(fullMethodName.lastIndexOf('/') + 1);
      this.proxy = timer("proxy");
      this.runtime = timer("runtime");
    }

    void record(Status.Code code, long totalNanos, long runtimeNanos) {
      calls.computeIfAbsent(code, c -> counter("cri.requests", c)).increment();
      if (code != Status.Code.OK) {
        errors.computeIfAbsent(code, c -> counter("cri.request.errors", c)).increment();
      }
      runtime.record(runtimeNanos, TimeUnit.NANOSECONDS);
      proxy.record(Math.max(0, totalNanos - runtimeNanos), TimeUnit.NANOSECONDS);
    }

    private Timer timer(String part) {
      return Timer.builder("cri.request.latency")
          .description("CRI call latency: time in the proxy or waiting for the runtime")
          .tags("service", service, "method", method, "part", part)
          // Fixed buckets rather than client-side percentiles: recording stays lock-free on the
          // relay's I/O threads, and Prometheus can aggregate buckets across nodes.
          .serviceLevelObjectives(BUCKETS)
          .register(registry);
    }

    private Counter counter(String name, Status.Code code) {
      return Counter.builder(name)
          .tags("service", service, "method", method, "code", code.name())
          .register(registry);
    }

    private static String simpleName(String fullService) {
      return fullService.substring(fullService.lastIndexOf('.') + 1);
    }
  }
}
