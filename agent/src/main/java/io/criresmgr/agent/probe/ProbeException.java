package io.criresmgr.agent.probe;

/** The probe failed: the agent is unhealthy or could not be asked; the message says which. */
final class ProbeException extends Exception {
  private static final long serialVersionUID = 1L;

  ProbeException(String message) {
    super(message);
  }
}
