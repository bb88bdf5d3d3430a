package io.criresmgr.proxy.core;

/**
 * The cache cannot be reconciled with the runtime ({@link StartupSync}); the message says what
 * failed. The daemon does not start.
 */
public class SyncException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** With a message and its cause. */
  public SyncException(String message, Throwable cause) {
    super(message, cause);
  }
}
