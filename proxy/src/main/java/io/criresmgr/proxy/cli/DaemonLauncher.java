package io.criresmgr.proxy.cli;

import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.ConfigStore;

/** Runs the daemon once the command line and configuration are ready; {@code Daemon::run}. */
@FunctionalInterface
public interface DaemonLauncher {
  /** Runs until shutdown and returns the exit status. */
  int run(DaemonOptions options, ConfigStore config);
}
