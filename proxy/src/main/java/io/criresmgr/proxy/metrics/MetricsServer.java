package io.criresmgr.proxy.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.criresmgr.proxy.config.HttpEndpoint;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The daemon's HTTP server: {@code /metrics} in Prometheus text format (when exported) and {@code
 * /introspect}, the resource manager's picture of the node as JSON.
 */
public final class MetricsServer implements AutoCloseable {
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Listens on {@code endpoint} ({@code host:port} or {@code :port}; port 0 picks a free one) and
   * serves {@code registry} at {@code /metrics}.
   */
  public static MetricsServer start(String endpoint, PrometheusMeterRegistry registry)
      throws IOException {
    return start(endpoint, () -> registry.scrape(), () -> null);
  }

  /**
   * Listens on {@code endpoint} and serves {@code metrics} at {@code /metrics} and {@code
   * introspection} at {@code /introspect}; a source giving null answers 404.
   */
  public static MetricsServer start(String endpoint, Source metrics, Source introspection)
      throws IOException {
    HttpServer server = HttpServer.create(address(endpoint), 16);
    server.createContext(
        "/metrics", exchange -> serve(exchange, "/metrics", CONTENT_TYPE, metrics));
    server.createContext(
        "/introspect",
        exchange -> serve(exchange, "/introspect", "application/json", introspection));
    ExecutorService executor =
        Executors.newSingleThreadExecutor(new DefaultThreadFactory("metrics-http", true));
    server.setExecutor(executor);
    server.start();
    return new MetricsServer(server, executor);
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

  private static void serve(HttpExchange exchange, String path, String type, Source source)
      throws IOException {
    try (exchange) {
      String text = null;
      if ("GET".equals(exchange.getRequestMethod()) && path.equals(path(exchange))) {
        try {
          text = source.get();
        } catch (Exception e) {
          byte[] error = (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(503, error.length);
          exchange.getResponseBody().write(error);
          return;
        }
      }
      if (text == null) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      byte[] body = text.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static String path(HttpExchange exchange) {
    return exchange.getRequestURI().getPath();
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
