package io.criresmgr.proxy.daemon;

import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.ConfigStore;

/** Runs the cri-resmgr daemon until it is stopped. */
public final class Daemon {
  private Daemon() {}

  /**
   * Starts the relay with the given options and configuration, blocks until shutdown, and returns
   * the process exit status.
   */
  public static int run(DaemonOptions options, ConfigStore config) {
    throw new IllegalStateException("not wired yet");
  }
}
