package io.criresmgr.proxy.cli;

import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.daemon.RuntimeConnection;
import io.criresmgr.proxy.log.KlogControl;
import io.criresmgr.proxy.log.KlogEnvironment;
import io.criresmgr.proxy.log.KlogSettings;
import io.criresmgr.proxy.log.LogControl;
import io.criresmgr.proxy.log.LogbackHeaders;
import io.criresmgr.proxy.signals.Signals;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens between parsing the flags and running the daemon: logging control from {@code
 * LOGGER_DEBUG} and {@code logger.Debug}, cri-resmgr's klog settings (environment, flags, {@code
 * logger.Klog}), the {@code SIGUSR1} debug toggle, the configuration store, and the reload signal
 * of a forced configuration. Handlers are removed when the daemon returns.
 */
public final class DaemonStartup {
  /** The signal toggling forced debug logging, as in cri-resmgr. */
  public static final String DEBUG_TOGGLE_SIGNAL = "USR1";

  private static final Logger LOG = LoggerFactory.getLogger(DaemonStartup.class);

  private final ConfigLoader loader;
  private final DaemonLauncher launcher;
  private final Map<String, String> env;

  /**
   * Loads configuration files with {@code loader}, runs the daemon with {@code launcher}, and reads
   * environment variables from {@code env} ({@code System.getenv()} in production).
   */
  public DaemonStartup(ConfigLoader loader, DaemonLauncher launcher, Map<String, String> env) {
    this.loader = Objects.requireNonNull(loader, "loader");
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.env = Map.copyOf(env);
  }

  /** The loader of configuration files. */
  public ConfigLoader loader() {
    return loader;
  }

  /** {@link #start(DaemonOptions, Config, UnaryOperator)} without klog flags. */
  public int start(DaemonOptions options, Config initial) {
    return start(options, initial, UnaryOperator.identity());
  }

  /**
   * Sets up logging, the store and signals, then runs the daemon; returns its exit status. {@code
   * klogFlags} puts the klog flags of the command line on top of the environment's settings. Throws
   * {@link ConfigException} for a malformed {@code LOGGER_*} variable.
   */
  public int start(DaemonOptions options, Config initial, UnaryOperator<KlogSettings> klogFlags) {
    return start(options, initial, klogFlags, Optional.empty());
  }

  /**
   * {@link #start(DaemonOptions, Config, UnaryOperator)} with the runtime connection begun while
   * the configuration loaded ({@link PlainDaemonStart}); the daemon takes it over.
   */
  public int start(
      DaemonOptions options,
      Config initial,
      UnaryOperator<KlogSettings> klogFlags,
      Optional<RuntimeConnection> early) {
    KlogSettings klogBase = klogFlags.apply(KlogEnvironment.read(env));
    LogControl logs = LogControl.forLogback(env.get(LogControl.ENV));
    KlogControl klog = new KlogControl(klogBase, LogbackHeaders.current());
    klog.configChanged(initial);
    logs.configChanged(initial);
    ConfigStore store = new ConfigStore(initial);
    store.addListener(klog);
    store.addListener(logs);
    Signals.Registration toggle = debugToggle(logs);
    ConfigReloader reloader = reloader(options, store);
    try {
      return launcher.run(options, store, early);
    } finally {
      if (reloader != null) {
        reloader.close();
      }
      toggle.close();
    }
  }

  private static Signals.Registration debugToggle(LogControl logs) {
    try {
      return Signals.handle(DEBUG_TOGGLE_SIGNAL, logs::toggleForcedDebug);
    } catch (IllegalArgumentException e) {
      LOG.warn("SIG{} will not toggle debug logging: {}", DEBUG_TOGGLE_SIGNAL, e.getMessage());
      return () -> {};
    }
  }

  private @Nullable ConfigReloader reloader(DaemonOptions options, ConfigStore store) {
    if (options.forceConfig().isEmpty() || options.forceConfigSignal().isEmpty()) {
      return null;
    }
    Path file = options.forceConfig().get();
    ConfigReloader reloader = new ConfigReloader(file, loader, store);
    try {
      reloader.start(options.forceConfigSignal().get());
    } catch (IllegalArgumentException e) {
      LOG.warn("{} will not be reloaded on a signal: {}", file, e.getMessage());
    }
    return reloader;
  }
}
