package io.criresmgr.proxy.metrics;

import io.criresmgr.http.BoundedHttpServer;
import io.criresmgr.http.HttpLimits;
import io.criresmgr.proxy.config.HttpEndpoint;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

/**
 * The daemon's HTTP server: a map of path to {@link Route} ({@code /metrics} in Prometheus text
 * format, {@code /introspect} as JSON), served within {@link #LIMITS} by a {@link
 * BoundedHttpServer}, so that one slow or misbehaving client cannot delay a scrape.
 */
public final class MetricsServer implements AutoCloseable {
  /** Media type of {@code /metrics}. */
  public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  /**
   * A request must arrive within 5 s and its page be written within 30 s (introspection waits for
   * the pipeline); 64 connections, 2 threads and 8 queued requests; no request bodies.
   */
  public static final HttpLimits LIMITS =
      new HttpLimits(
          Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(60), 64, 2, 8, 0, 0);

  private final BoundedHttpServer server;
  private final Routes routes;

  private MetricsServer(BoundedHttpServer server, Routes routes) {
    this.server = server;
    this.routes = routes;
  }

  /** Listens on {@code endpoint} ({@code host:port} or {@code :port}; port 0 picks a free one). */
  public static MetricsServer start(String endpoint, Map<String, Route> routes) throws IOException {
    return start(endpoint, LIMITS, routes);
  }

  /** As {@link #start(String, Map)}, its threads named after {@code name}. */
  static MetricsServer start(String name, String endpoint, Map<String, Route> routes)
      throws IOException {
    return start(name, endpoint, LIMITS, routes);
  }

  /** Listens on {@code endpoint} within {@code limits} (tests shorten the timeouts). */
  public static MetricsServer start(String endpoint, HttpLimits limits, Map<String, Route> routes)
      throws IOException {
    return start("metrics-http", endpoint, limits, routes);
  }

  private static MetricsServer start(
      String name, String endpoint, HttpLimits limits, Map<String, Route> routes)
      throws IOException {
    Routes handler = new Routes(routes);
    return new MetricsServer(
        BoundedHttpServer.start(name, address(endpoint), limits, null, handler), handler);
  }

  /** Serves {@code next} from now on, on the same socket. */
  public void routes(Map<String, Route> next) {
    routes.set(next);
  }

  /**
   * Parses {@code host:port} / {@code :port} ({@link HttpEndpoint}); empty host: every interface.
   */
  static InetSocketAddress address(String endpoint) {
    try {
      HttpEndpoint.check(endpoint);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "invalid HTTP endpoint \"" + endpoint + "\": " + e.getMessage(), e);
    }
    if (endpoint.isEmpty()) {
      throw new IllegalArgumentException("invalid HTTP endpoint \"\": no server is wanted");
    }
    String host = HttpEndpoint.host(endpoint);
    int port = HttpEndpoint.port(endpoint);
    return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
  }

  /** Produces a page; null when there is nothing to serve. */
  @FunctionalInterface
  public interface Source {
    /** The page's text, or null. */
    @org.jspecify.annotations.Nullable
    String get() throws Exception;
  }

  /** The bound port. */
  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }
}
