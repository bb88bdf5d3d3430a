package io.criresmgr.controllers;

/** The controllers module's exception root: a controller could not start or enforce a decision. */
public class ControllerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Without message. */
  public ControllerException() {}

  /** With a message. */
  public ControllerException(String message) {
    super(message);
  }

  /** With a message and a cause. */
  public ControllerException(String message, Throwable cause) {
    super(message, cause);
  }

  /** With a cause. */
  public ControllerException(Throwable cause) {
    super(cause);
  }
}
