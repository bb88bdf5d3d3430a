package io.criresmgr.http;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of a {@link BoundedHttpServer}.
 *
 * @param requestTimeout the longest a request may take to arrive: from the connection's start
 *     (including a TLS handshake) or from its first byte on a kept-alive connection, to its last
 *     byte; then the connection is closed
 * @param responseTimeout the longest from a request's last byte to its response's last byte written
 *     (the handler's work plus a slow reader)
 * @param idleTimeout how long a kept-alive connection may wait for its next request
 * @param maxConnections connections open at once; more are closed as soon as accepted
 * @param threads worker threads running the handler
 * @param queue requests waiting for a worker; more get 503
 * @param maxBody the largest request body in bytes (0: no body); larger ones get 413
 * @param bodyBudget the bytes of all request bodies being received at once (a request reserves its
 *     {@code Content-Length}, or {@code maxBody} if chunked); a request that does not fit gets 503
 */
public record HttpLimits(
    Duration requestTimeout,
    Duration responseTimeout,
    Duration idleTimeout,
    int maxConnections,
    int threads,
    int queue,
    int maxBody,
    long bodyBudget) {
  /** Checks that every bound is positive and the budget holds at least one body. */
  public HttpLimits {
    positive("requestTimeout", requestTimeout);
    positive("responseTimeout", responseTimeout);
    positive("idleTimeout", idleTimeout);
    positive("maxConnections", maxConnections);
    positive("threads", threads);
    positive("queue", queue);
    if (maxBody < 0 || bodyBudget < maxBody) {
      throw new IllegalArgumentException(
          "maxBody " + maxBody + " must be >= 0 and at most bodyBudget " + bodyBudget);
    }
  }

  /** A copy with another {@link #requestTimeout} (tests shorten it). */
  public HttpLimits withRequestTimeout(Duration timeout) {
    return new HttpLimits(
        timeout, responseTimeout, idleTimeout, maxConnections, threads, queue, maxBody, bodyBudget);
  }

  private static void positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " " + value + " must be positive");
    }
  }

  private static void positive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " " + value + " must be positive");
    }
  }
}
