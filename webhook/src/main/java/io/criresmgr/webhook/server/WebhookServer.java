package io.criresmgr.webhook.server;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.criresmgr.webhook.admission.AdmissionReviewer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The webhook's HTTPS server (the JDK's {@code HttpsServer}), running until closed. */
public final class WebhookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  // The API server calls one webhook at a time per admitted object; a few threads are plenty.
  private static final int THREADS = 4;

  private final HttpsServer server;
  private final ExecutorService executor;
  private final AtomicBoolean closed = new AtomicBoolean();

  private WebhookServer(HttpsServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free port) with {@code tls}.
   *
   * @throws IOException if the address cannot be bound
   */
  public static WebhookServer start(
      InetSocketAddress address, SSLContext tls, AdmissionReviewer reviewer) throws IOException {
    HttpsServer server = HttpsServer.create(address, 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/", new WebhookHandler(reviewer));
    ExecutorService executor = Executors.newFixedThreadPool(THREADS, threads());
    server.setExecutor(executor);
    server.start();
    LOG.info("serving AdmissionReviews over HTTPS on {}", server.getAddress());
    return new WebhookServer(server, executor);
  }

  /** The port the server listens on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops accepting, gives running exchanges a second to finish, stops the threads; idempotent. */
  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    server.stop(1);
    executor.shutdownNow();
    LOG.info("stopped");
  }

  private static ThreadFactory threads() {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, "webhook-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
