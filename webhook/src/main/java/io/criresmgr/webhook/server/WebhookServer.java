package io.criresmgr.webhook.server;

import io.criresmgr.http.BoundedHttpServer;
import io.criresmgr.http.HttpLimits;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook's HTTPS server (a {@link BoundedHttpServer} within {@link #LIMITS}), running until
 * closed.
 */
public final class WebhookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);

  /** Large enough for a review of the biggest pod the API server stores, old and new object. */
  static final int MAX_BODY = 16 << 20;

  /**
   * The TLS handshake and the request within 10 s (the API server gives up after the webhook's
   * {@code timeoutSeconds}, at most 30 s, 5 s in our manifests), the reply within 10 s; kept-alive
   * connections idle up to 120 s (longer than the API server's client keeps them, 90 s, so it is
   * the one to close them); 128 connections; 4 threads and 64 queued reviews; bodies up to 16 MiB,
   * 48 MiB of bodies being received at once.
   */
  public static final HttpLimits LIMITS =
      new HttpLimits(
          Duration.ofSeconds(10),
          Duration.ofSeconds(10),
          Duration.ofSeconds(120),
          128,
          4,
          64,
          MAX_BODY,
          3L * MAX_BODY);

  private final BoundedHttpServer server;
  private final AtomicBoolean closed = new AtomicBoolean();

  private WebhookServer(BoundedHttpServer server) {
    this.server = server;
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free port) with {@code tls}.
   *
   * @throws IOException if the address cannot be bound
   */
  public static WebhookServer start(
      InetSocketAddress address, SSLContext tls, AdmissionReviewer reviewer) throws IOException {
    return start(address, tls, reviewer, LIMITS);
  }

  /** Starts serving within {@code limits} (tests shorten the timeouts). */
  public static WebhookServer start(
      InetSocketAddress address, SSLContext tls, AdmissionReviewer reviewer, HttpLimits limits)
      throws IOException {
    BoundedHttpServer server =
        BoundedHttpServer.start("webhook", address, limits, tls, new WebhookHandler(reviewer));
    LOG.info("serving AdmissionReviews over HTTPS on {}", server.address());
    return new WebhookServer(server);
  }

  /** The port the server listens on. */
  public int port() {
    return server.port();
  }

  /** Stops accepting, closes every connection, stops the threads; idempotent. */
  @Override
  public void close() {
    if (!closed.getAndSet(true)) {
      server.close();
      LOG.info("stopped");
    }
  }
}
