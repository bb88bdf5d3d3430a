package io.criresmgr.controllers.blockio;

import io.criresmgr.controllers.ControllerException;

/** A block I/O configuration error or a class that cannot be applied; the message says why. */
public final class BlockIoException extends ControllerException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the path, the value and what is allowed. */
  public BlockIoException(String message) {
    super(message);
  }

  /** With a message and a cause. */
  public BlockIoException(String message, Throwable cause) {
    super(message, cause);
  }
}
