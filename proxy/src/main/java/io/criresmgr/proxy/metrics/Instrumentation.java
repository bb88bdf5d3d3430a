package io.criresmgr.proxy.metrics;

import io.criresmgr.proxy.config.InstrumentationConfig;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics registry and its HTTP server, following section {@code instrumentation}: the server
 * runs while {@code HTTPEndpoint} is set and {@code PrometheusExport} is true, and moves when the
 * endpoint changes. Tracing keys are accepted but tracing export is not implemented: setting a
 * Jaeger endpoint logs a warning.
 */
public final class Instrumentation implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Instrumentation.class);

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private @Nullable MetricsServer server;
  private volatile @Nullable InstrumentationConfig applied;
  private volatile MetricsServer.Source introspection = () -> null;
  private volatile MetricsServer.Source extraMetrics = () -> "";

  /** A registry with process and JVM metrics bound; no server until {@link #configure}. */
  public Instrumentation() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  /** The registry relay metrics register in. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /**
   * Starts, moves or stops the HTTP server for {@code config}; throws if the endpoint cannot be
   * bound, leaving the previous server running.
   */
  public synchronized void configure(InstrumentationConfig config) throws IOException {
    Objects.requireNonNull(config, "config");
    if (!config.jaegerCollector().isEmpty() || !config.jaegerAgent().isEmpty()) {
      LOG.warn("tracing export (Jaeger) is not supported; JaegerCollector/JaegerAgent ignored");
    }
    String wanted = config.httpEndpoint();
    String current = applied != null ? applied.httpEndpoint() : "";
    if (server != null && wanted.equals(current)) {
      applied = config;
      return;
    }
    MetricsServer started =
        wanted.isEmpty()
            ? null
            : MetricsServer.start(wanted, this::metricsPage, () -> introspection.get());
    if (server != null) {
      server.close();
    }
    server = started;
    applied = config;
    if (started != null) {
      LOG.info("serving /metrics and /introspect at http://{} (port {})", wanted, started.port());
    }
  }

  private @Nullable String metricsPage() {
    InstrumentationConfig config = applied;
    if (config == null || !config.prometheusExport()) {
      return null;
    }
    String extra;
    try {
      extra = extraMetrics.get();
    } catch (Exception e) {
      LOG.warn("{}", e.getMessage());
      extra = "";
    }
    return registry.scrape() + (extra == null ? "" : extra);
  }

  /** Appends {@code source}'s text (Prometheus format) to every scrape of {@code /metrics}. */
  public void setExtraMetrics(MetricsServer.Source source) {
    extraMetrics = Objects.requireNonNull(source, "source");
  }

  /** Serves {@code source} at {@code /introspect}. */
  public void setIntrospection(MetricsServer.Source source) {
    introspection = Objects.requireNonNull(source, "source");
  }

  /** The bound HTTP port, or -1 when no server runs. */
  public synchronized int port() {
    return server == null ? -1 : server.port();
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.close();
      server = null;
    }
    registry.close();
  }
}
