package io.criresmgr.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * An HTTP response. Responses with a status of 400 or more close the connection.
 *
 * @param status the status code
 * @param contentType the media type of the body
 * @param body the body
 * @param headers further headers, e.g. {@code Allow}
 */
// The body is copied in and out; responses are never compared.
@SuppressWarnings("ArrayRecordComponent")
public record Response(int status, String contentType, byte[] body, Map<String, String> headers) {
  /** Checks for nulls and copies the body and headers. */
  public Response {
    Objects.requireNonNull(contentType, "contentType");
    body = body.clone();
    headers = Map.copyOf(headers);
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  /** A response with {@code body} and no further headers. */
  public static Response of(int status, String contentType, byte[] body) {
    return new Response(status, contentType, body, Map.of());
  }

  /** A plain-text response, {@code message} followed by a newline. */
  public static Response text(int status, String message) {
    return of(
        status, "text/plain; charset=utf-8", (message + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** This response with the header {@code name: value} added. */
  public Response withHeader(String name, String value) {
    Map<String, String> more = new java.util.HashMap<>(headers);
    more.put(name, value);
    return new Response(status, contentType, body, more);
  }

  /** The body as text (for logs and tests). */
  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
