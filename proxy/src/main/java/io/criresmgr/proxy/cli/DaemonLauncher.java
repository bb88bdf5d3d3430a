package io.criresmgr.proxy.cli;

import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.daemon.RuntimeConnection;
import java.util.Optional;

/** Runs the daemon once the command line and configuration are ready; {@code Daemon::run}. */
@FunctionalInterface
public interface DaemonLauncher {
  /**
   * Runs until shutdown and returns the exit status. {@code early} is the runtime connection begun
   * while the configuration was loaded, if any; the launcher takes it over.
   */
  int run(DaemonOptions options, ConfigStore config, Optional<RuntimeConnection> early);
}
