package io.criresmgr.controllers.cgroups;

import io.criresmgr.controllers.ControllerException;

/** A cgroup layout was not recognized, a cgroup was not found, or a value or write was refused. */
public class CgroupException extends ControllerException {
  private static final long serialVersionUID = 1L;

  /** With a message. */
  public CgroupException(String message) {
    super(message);
  }

  /** With a message and a cause. */
  public CgroupException(String message, Throwable cause) {
    super(message, cause);
  }
}
