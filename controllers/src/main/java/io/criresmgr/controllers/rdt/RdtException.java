package io.criresmgr.controllers.rdt;

import io.criresmgr.controllers.ControllerException;

/** An invalid {@code rdt} section, an unusable resctrl tree or a failed resctrl write. */
public final class RdtException extends ControllerException {
  private static final long serialVersionUID = 1L;

  /** With a message. */
  public RdtException(String message) {
    super(message);
  }

  /** With a message and a cause. */
  public RdtException(String message, Throwable cause) {
    super(message, cause);
  }
}
