package io.criresmgr.proxy;

import java.util.List;

/**
 * {@code cri-resmgr} without subcommands, for tests that start the daemon in a JVM of its own on
 * this module's class path; the program's {@code main} is in module {@code command}.
 */
public final class DaemonMain {
  private DaemonMain() {}

  /** Runs the daemon's command line and exits with its status. */
  public static void main(String[] args) {
    CommandTree.runAndExit(args, List::of);
  }
}
