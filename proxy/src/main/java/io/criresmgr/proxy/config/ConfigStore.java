package io.criresmgr.proxy.config;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the active configuration; {@link #update} validates, swaps, notifies and rolls back.
 *
 * <p>Thread-safe; updates are serialized.
 */
public final class ConfigStore {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigStore.class);
  private volatile Config current; // written only under this store's lock
  private final List<ConfigListener> listeners = new CopyOnWriteArrayList<>();

  /** Starts with {@code initial} active. */
  public ConfigStore(Config initial) {
    this.current = Objects.requireNonNull(initial, "initial");
  }

  /** The active configuration. */
  public Config current() {
    return current;
  }

  /**
   * Adds {@code added}, made from {@code started} (the configuration their maker read before it
   * made them), and, if the store was updated in between, brings every listener to the active
   * configuration: a reload during the daemon's start is applied, not lost to the parts that were
   * not yet listening. If one of them rejects it, {@code started} is active again for every
   * listener and the {@link ConfigException} is thrown.
   */
  public synchronized void addListeners(Config started, List<ConfigListener> added) {
    Objects.requireNonNull(started, "started");
    listeners.addAll(List.copyOf(added));
    Config latest = current;
    if (latest.equals(started)) {
      return;
    }
    current = started;
    update(latest);
  }

  /** Adds a listener; it is not called for the configuration already active. */
  public void addListener(ConfigListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Makes {@code config} active and notifies listeners in order. If one throws, the previous
   * configuration is restored, every listener is notified of it, and a {@link ConfigException}
   * naming the rejecting reason is thrown.
   */
  public synchronized void update(Config config) {
    Config previous = current;
    current = Objects.requireNonNull(config, "config");
    try {
      for (ConfigListener listener : listeners) {
        listener.configChanged(config);
      }
    } catch (Exception e) {
      current = previous;
      for (ConfigListener listener : listeners) {
        try {
          listener.configChanged(previous);
        } catch (Exception again) {
          // Best effort: the previous configuration was accepted before, so this is unexpected.
          LOG.warn("restoring the previous configuration failed: {}", again.getMessage());
        }
      }
      throw new ConfigException("configuration rejected: " + e.getMessage(), e);
    }
  }
}
