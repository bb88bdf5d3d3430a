package io.criresmgr.proxy.metrics;

import java.util.Objects;

/**
 * A page of the daemon's HTTP server.
 *
 * @param contentType the page's media type
 * @param source produces the page; null answers 404, an exception 503 with its message
 * @param loopbackOnly whether only clients on this host (loopback addresses) may read it; others
 *     get 403
 */
public record Route(String contentType, MetricsServer.Source source, boolean loopbackOnly) {
  /** Checks for nulls. */
  public Route {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(source, "source");
  }
}
