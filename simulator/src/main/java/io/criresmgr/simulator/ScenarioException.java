package io.criresmgr.simulator;

/**
 * A scenario file that cannot be read, parsed or validated; the message is {@code FILE:LINE: path:
 * what is wrong, what is allowed}. {@code cri-resmgr simulate} exits with status 2 for it.
 */
public class ScenarioException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** With a message naming the file, line and field. */
  public ScenarioException(String message) {
    super(message);
  }

  /** With a message and its cause. */
  public ScenarioException(String message, Throwable cause) {
    super(message, cause);
  }
}
