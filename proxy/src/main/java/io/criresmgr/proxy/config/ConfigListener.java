package io.criresmgr.proxy.config;

/**
 * Receives every accepted configuration. Throwing rejects the new configuration: the store then
 * restores the previous one and notifies every listener of it again.
 */
@FunctionalInterface
public interface ConfigListener {
  /** Applies {@code config}; throws to reject it, with a message saying why. */
  void configChanged(Config config) throws Exception;
}
