package io.criresmgr.proxy;

/** Entry point of {@code cri-resmgr}. */
public final class Main {
  private Main() {}

  /** Runs the command line. */
  public static void main(String[] args) {
    System.out.println("cri-resmgr");
  }
}
