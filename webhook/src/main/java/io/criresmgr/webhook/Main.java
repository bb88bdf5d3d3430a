package io.criresmgr.webhook;

/** Entry point of {@code cri-resmgr-webhook}. */
public final class Main {
  private Main() {}

  /** Not implemented yet: prints so and exits with status 1. */
  public static void main(String[] args) {
    System.err.println("cri-resmgr-webhook: not implemented yet");
    System.exit(1);
  }
}
