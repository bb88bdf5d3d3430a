package io.criresmgr.http;

import java.net.InetAddress;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A complete HTTP request.
 *
 * @param method the method, e.g. {@code GET}
 * @param path the decoded path without the query
 * @param contentType the {@code Content-Type} header, if any
 * @param body the body (empty if none)
 * @param peer the client's address (null if not an IP connection, e.g. in tests)
 */
// The body is copied in and out; requests are never compared.
@SuppressWarnings("ArrayRecordComponent")
public record Request(
    String method,
    String path,
    @Nullable String contentType,
    byte[] body,
    @Nullable InetAddress peer) {
  /** Checks for nulls and copies the body. */
  public Request {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    body = body.clone();
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  /** Whether the client connected from a loopback address of this host. */
  public boolean fromLoopback() {
    return peer != null && peer.isLoopbackAddress();
  }
}
