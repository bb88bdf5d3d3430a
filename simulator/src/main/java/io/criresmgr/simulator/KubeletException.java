package io.criresmgr.simulator;

/** A CRI call kubelet made failed; the message names the call, the object and the status. */
final class KubeletException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  KubeletException(String message) {
    super(message);
  }

  KubeletException(String message, Throwable cause) {
    super(message, cause);
  }
}
