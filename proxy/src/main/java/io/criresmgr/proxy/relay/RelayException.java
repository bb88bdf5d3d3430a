package io.criresmgr.proxy.relay;

/** The relay cannot start or serve; the message says what to do next. */
public class RelayException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** With a message. */
  public RelayException(String message) {
    super(message);
  }

  /** With a message and its cause. */
  public RelayException(String message, Throwable cause) {
    super(message, cause);
  }
}
