package io.criresmgr.nri;

/** The module's root exception: NRI connection, registration or protocol failures. */
public class NriException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure with a message saying what went wrong and what to check. */
  public NriException(String message) {
    super(message);
  }

  /** A failure with a message and its cause. */
  public NriException(String message, Throwable cause) {
    super(message, cause);
  }
}
