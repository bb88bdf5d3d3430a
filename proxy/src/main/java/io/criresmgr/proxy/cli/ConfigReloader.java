package io.criresmgr.proxy.cli;

import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.signals.Signals;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads the forced configuration file ({@code --force-config}) when the reload signal ({@code
 * --force-config-signal}) arrives. A file that does not parse, is no regular file (a FIFO is
 * refused without being opened) or is too large, or a configuration a listener rejects, leaves the
 * active configuration in place and is reported in one error line; the next signal reloads again.
 *
 * <p>Thread-safe; reloads are serialized.
 */
public final class ConfigReloader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigReloader.class);

  private final Path file;
  private final ConfigLoader loader;
  private final ConfigStore store;
  private Signals.@Nullable Registration registration;

  /** Reloads {@code file} with {@code loader} into {@code store}. */
  public ConfigReloader(Path file, ConfigLoader loader, ConfigStore store) {
    this.file = Objects.requireNonNull(file, "file");
    this.loader = Objects.requireNonNull(loader, "loader");
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * Reloads on every signal {@code signal} (e.g. {@code HUP}) from now on. Throws {@link
   * IllegalArgumentException} if the signal cannot be handled.
   */
  public synchronized void start(String signal) {
    if (registration != null) {
      throw new IllegalStateException("already started");
    }
    registration = Signals.handle(signal, this::reload);
    LOG.info("SIG{} reloads the configuration from {}", signal, file);
  }

  /**
   * Reads the file and makes it the active configuration; returns whether it is active now. On
   * failure the previous configuration stays active and the reason is logged.
   */
  public synchronized boolean reload() {
    Config config;
    try {
      config = loader.load(file);
    } catch (ConfigException e) {
      logFailure(e.getMessage());
      return false;
    } catch (RuntimeException e) {
      // A bug must not end reloading: the signal handler runs this again on the next signal.
      logFailure(file + ": " + e);
      return false;
    }
    try {
      store.update(config);
    } catch (ConfigException e) {
      logFailure(file + ": " + e.getMessage());
      return false;
    }
    LOG.info("configuration reloaded from {}", file);
    return true;
  }

  private static void logFailure(@Nullable String reason) {
    LOG.error("configuration reload failed, the previous configuration stays active: {}", reason);
  }

  /** Stops reloading on the signal and restores its previous handler. */
  @Override
  public synchronized void close() {
    if (registration != null) {
      registration.close();
      registration = null;
    }
  }
}
