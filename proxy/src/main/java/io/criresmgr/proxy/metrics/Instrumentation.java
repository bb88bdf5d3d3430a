package io.criresmgr.proxy.metrics;

import io.criresmgr.proxy.config.HttpEndpoint;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics registry and its HTTP server, following section {@code instrumentation}: the server
 * runs while {@code HTTPEndpoint} is set, serving {@code /metrics} while {@code PrometheusExport}
 * is true, and {@code /introspect} and the live view's pages ({@link #setViewPages}) to loopback
 * clients (to everyone with {@code RemoteIntrospection}); it moves when the endpoint changes. The
 * server is optional: an endpoint that cannot be bound at start is retried in the background
 * ({@link BindRetry}) while the daemon serves CRI. Tracing keys are accepted but tracing export is
 * not implemented: setting a Jaeger endpoint logs a warning.
 */
public final class Instrumentation implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Instrumentation.class);

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final BindRetry retry = new BindRetry(this::retryBind);
  private @Nullable MetricsServer server;
  private @Nullable String healthEndpoint; // --health-endpoint, once serveHealth bound it
  private int healthPort;
  private volatile @Nullable InstrumentationConfig applied;
  private volatile MetricsServer.Source introspection = () -> null;
  private volatile MetricsServer.Source extraMetrics = () -> "";
  private volatile Health health = new Health();
  private volatile Map<String, Route> viewPages = Map.of();

  /** A registry without process and JVM metrics ({@link #bindJvmMetrics}); no server yet. */
  public Instrumentation() {}

  /**
   * Binds the process and JVM metrics ({@code jvm_*}, {@code process_*}, {@code system_*}). The
   * daemon does so once it serves CRI: they are not needed to serve, and the management beans they
   * read cost a twentieth of the start-up (docs/benchmarks.md, "Start-up").
   */
  public void bindJvmMetrics() {
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
   * Applies {@code config} at start: like {@link #configure}, but an endpoint that cannot be bound
   * (a busy port) is only logged, once, and retried in the background until it is bound or the
   * configuration changes. The HTTP server is optional; CRI must not wait for it.
   */
  public synchronized void start(InstrumentationConfig config) {
    try {
      configure(config);
    } catch (HealthPortTaken e) {
      // No retry: the port stays the health listener's until a configuration moves the endpoint.
      applied = config;
      LOG.error("{}; serving CRI without /metrics and /introspect", e.getMessage());
    } catch (IOException e) {
      applied = config;
      LOG.warn(
          "{}; serving CRI without /metrics and /introspect, retrying in the background after {} s,"
              + " then up to every {} s",
          e.getMessage(),
          BindRetry.FIRST.toSeconds(),
          BindRetry.LAST.toSeconds());
      retry.schedule(config.httpEndpoint());
    }
  }

  /**
   * Starts, moves or stops the HTTP server for {@code config}; throws if the endpoint cannot be
   * bound, leaving the previous server (or its pending retry) as it was.
   */
  public synchronized void configure(InstrumentationConfig config) throws IOException {
    Objects.requireNonNull(config, "config");
    if (!config.jaegerCollector().isEmpty() || !config.jaegerAgent().isEmpty()) {
      LOG.warn("tracing export (Jaeger) is not supported; JaegerCollector/JaegerAgent ignored");
    }
    String wanted = config.httpEndpoint();
    if (wanted.equals(currentEndpoint()) && (server != null || retry.pending())) {
      applied = config;
      if (server != null) {
        server.routes(routes(config));
      }
      return;
    }
    if (!wanted.isEmpty()) {
      checkNotHealthPort(wanted);
    }
    MetricsServer started = wanted.isEmpty() ? null : bind(wanted, config);
    retry.cancel();
    replace(started, config);
  }

  /** An endpoint that would ask for the health listener's port, which it could never bind. */
  static final class HealthPortTaken extends IOException {
    private static final long serialVersionUID = 1L;

    HealthPortTaken(String message) {
      super(message);
    }
  }

  private void checkNotHealthPort(String wanted) throws HealthPortTaken {
    String health = healthEndpoint;
    if (health == null || HttpEndpoint.port(wanted) != healthPort) {
      return;
    }
    String a = HttpEndpoint.host(wanted);
    String b = HttpEndpoint.host(health);
    if (anyAddress(a) || anyAddress(b) || a.equals(b)) {
      throw new HealthPortTaken(
          "instrumentation.HTTPEndpoint: \""
              + wanted
              + "\" asks for port "
              + healthPort
              + ", which --health-endpoint \""
              + health
              + "\" serves; expected another port, or \"\" for no HTTP server");
    }
  }

  private static boolean anyAddress(String host) {
    return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::");
  }

  private MetricsServer bind(String endpoint, InstrumentationConfig config) throws IOException {
    try {
      return MetricsServer.start(endpoint, routes(config));
    } catch (IOException e) {
      throw new IOException(
          "instrumentation.HTTPEndpoint: cannot listen on \"" + endpoint + "\": " + e.getMessage(),
          e);
    }
  }

  private void replace(@Nullable MetricsServer started, InstrumentationConfig config) {
    if (server != null) {
      server.close();
    }
    server = started;
    applied = config;
    if (started != null) {
      LOG.info(
          "serving /metrics, /introspect and /ui at http://{} (port {})",
          config.httpEndpoint(),
          started.port());
    }
  }

  /** A background attempt for {@code endpoint}; false to try again later. */
  private synchronized boolean retryBind(String endpoint) {
    InstrumentationConfig config = applied;
    if (server != null || config == null || !config.httpEndpoint().equals(endpoint)) {
      return true;
    }
    try {
      replace(MetricsServer.start(endpoint, routes(config)), config);
      return true;
    } catch (IOException e) {
      LOG.debug("instrumentation.HTTPEndpoint: still cannot listen on \"{}\": {}", endpoint, e);
      return false;
    }
  }

  private String currentEndpoint() {
    InstrumentationConfig config = applied;
    return config == null ? "" : config.httpEndpoint();
  }

  /** The pages: one entry per path; the view's pages go to whom {@code /introspect} goes. */
  Map<String, Route> routes(InstrumentationConfig config) {
    Map<String, Route> routes = new java.util.HashMap<>();
    viewPages.forEach(
        (path, r) ->
            routes.put(
                path, new Route(r.contentType(), r.source(), !config.remoteIntrospection())));
    routes.putAll(fixedRoutes(config));
    return routes;
  }

  private Map<String, Route> fixedRoutes(InstrumentationConfig config) {
    Map<String, Route> routes = new java.util.HashMap<>(healthRoutes());
    routes.put("/metrics", new Route(MetricsServer.PROMETHEUS_TEXT, this::metricsPage, false));
    routes.put(
        "/introspect",
        new Route("application/json", () -> introspection.get(), !config.remoteIntrospection()));
    return routes;
  }

  /** {@code /healthz} and {@code /livez}, to every client: on both servers alike. */
  private Map<String, Route> healthRoutes() {
    return Map.of(
        "/healthz",
        new Route("text/plain; charset=utf-8", () -> healthPage(Health.Remedy.WAIT), false),
        "/livez",
        new Route("text/plain; charset=utf-8", () -> healthPage(Health.Remedy.RESTART), false));
  }

  /**
   * Starts a server of its own on {@code endpoint} ({@code --health-endpoint}) serving only {@code
   * /healthz} and {@code /livez}, as the configured endpoint serves them; it follows no
   * configuration, so a reload that moves or drops {@code HTTPEndpoint} leaves it alone. The caller
   * closes it. Throws if {@code endpoint} cannot be bound.
   */
  public MetricsServer serveHealth(String endpoint) throws IOException {
    MetricsServer started = MetricsServer.start("health-http", endpoint, healthRoutes());
    synchronized (this) {
      healthEndpoint = endpoint;
      healthPort = started.port();
    }
    LOG.info("serving /livez and /healthz at http://{} (port {})", endpoint, started.port());
    return started;
  }

  /**
   * {@code ok}, or 503 with one problem calling for {@code remedy} (or a stronger one) per line (a
   * failing source answers 503).
   */
  private String healthPage(Health.Remedy remedy) throws Exception {
    List<String> problems = health.problems(remedy);
    if (!problems.isEmpty()) {
      throw new Exception(String.join("\n", problems));
    }
    return "ok\n";
  }

  /** Serves {@code value}'s state at {@code /healthz} and {@code /livez}. */
  public void setHealth(Health value) {
    health = Objects.requireNonNull(value, "value");
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

  /**
   * Serves {@code pages} (the live view, docs/ui.md) beside {@code /introspect}, to the same
   * clients; their own {@link Route#loopbackOnly()} is ignored.
   */
  public synchronized void setViewPages(Map<String, Route> pages) {
    viewPages = Map.copyOf(pages);
    InstrumentationConfig config = applied;
    if (server != null && config != null) {
      server.routes(routes(config));
    }
  }

  /** Serves {@code source} at {@code /introspect}. */
  public void setIntrospection(MetricsServer.Source source) {
    introspection = Objects.requireNonNull(source, "source");
  }

  /** The bound HTTP port, or -1 when no server runs (none wanted, or still retrying). */
  public synchronized int port() {
    return server == null ? -1 : server.port();
  }

  @Override
  public synchronized void close() {
    retry.close();
    if (server != null) {
      server.close();
      server = null;
    }
    registry.close();
  }
}
