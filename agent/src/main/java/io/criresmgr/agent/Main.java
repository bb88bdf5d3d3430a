package io.criresmgr.agent;

/** Entry point of {@code cri-resmgr-agent}. */
public final class Main {
  private Main() {}

  /** Not implemented yet: prints so and exits with status 1. */
  public static void main(String[] args) {
    System.err.println("cri-resmgr-agent: not implemented yet");
    System.exit(1);
  }
}
