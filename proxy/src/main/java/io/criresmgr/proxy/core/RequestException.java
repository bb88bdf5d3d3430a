package io.criresmgr.proxy.core;

import io.grpc.Status;
import java.util.Objects;

/**
 * An intercepted request the resource manager refuses; becomes a gRPC status with this message. The
 * runtime was not called, or its effect was rolled back.
 */
public final class RequestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Status.Code code;

  /** A refusal with {@code code} and {@code message}. */
  public RequestException(Status.Code code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** A refusal with {@code code} and {@code message}. */
  public RequestException(Status.Code code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The status to answer with. */
  public Status status() {
    return Status.fromCode(code).withDescription(getMessage());
  }
}
