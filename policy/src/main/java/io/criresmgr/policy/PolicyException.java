package io.criresmgr.policy;

/**
 * The policy module's exception root: a request a policy cannot satisfy, or options it rejects. The
 * message is shown to the client or operator and should say what to change.
 */
public class PolicyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Without message. */
  public PolicyException() {}

  /** With a message. */
  public PolicyException(String message) {
    super(message);
  }

  /** With a message and a cause. */
  public PolicyException(String message, Throwable cause) {
    super(message, cause);
  }

  /** With a cause. */
  public PolicyException(Throwable cause) {
    super(cause);
  }
}
