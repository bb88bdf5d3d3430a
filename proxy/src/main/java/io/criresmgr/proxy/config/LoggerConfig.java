package io.criresmgr.proxy.config;

import java.util.Map;
import java.util.Objects;

/**
 * Section {@code logger}.
 *
 * @param debug debug sources, e.g. {@code "cache,policy"}, {@code "*"} or {@code
 *     "on:cache,off:dump"}
 * @param klog klog flags of cri-resmgr by name ({@link KlogFlag}), values checked; see
 *     docs/configuration.md for what each does here
 * @param logSource whether log lines carry their source name
 */
public record LoggerConfig(String debug, Map<String, String> klog, boolean logSource) {
  /** Checks for nulls and copies the map. */
  public LoggerConfig {
    Objects.requireNonNull(debug, "debug");
    klog = Map.copyOf(klog);
  }

  /** No debug sources. */
  public static LoggerConfig defaults() {
    return new LoggerConfig("", Map.of(), false);
  }
}
