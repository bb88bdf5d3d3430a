package io.criresmgr.webhook.tls;

/** A certificate or key file cannot be read or used; the message names the file. */
public final class CredentialsException extends Exception {
  private static final long serialVersionUID = 1L;

  /** {@code message} names the file and the problem. */
  public CredentialsException(String message) {
    super(message);
  }

  /** {@code message} names the file and the problem; {@code cause} is the underlying error. */
  public CredentialsException(String message, Throwable cause) {
    super(message, cause);
  }
}
