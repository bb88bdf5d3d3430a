package io.criresmgr.webhook.server;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An HTTP reply.
 *
 * @param status the HTTP status code
 * @param contentType the media type of the body
 * @param body the body
 */
record Reply(int status, String contentType, byte[] body) {
  Reply {
    Objects.requireNonNull(contentType, "contentType");
    body = body.clone();
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  static Reply json(byte[] body) {
    return new Reply(200, "application/json", body);
  }

  /** A plain-text reply, {@code message} followed by a newline. */
  static Reply text(int status, String message) {
    return new Reply(
        status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
