package io.criresmgr.proxy.log;

import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigListener;
import io.criresmgr.proxy.config.DebugSpec;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches debug logging per log source (cri-resmgr {@code pkg/log}).
 *
 * <p>The effective spec is the seed (environment variable {@value #ENV}) followed by {@code
 * logger.Debug} of the active configuration, whose entries win. Forced debugging ({@code SIGUSR1},
 * {@link #toggleForcedDebug}) turns every source on until toggled off. Enabled sources' loggers are
 * set to DEBUG, all others to INFO. As a {@link ConfigListener} it follows configuration reloads.
 *
 * <p>Thread-safe.
 */
public final class LogControl implements ConfigListener {
  /** The environment variable seeding the debug spec. */
  public static final String ENV = "LOGGER_DEBUG";

  private static final Logger LOG = LoggerFactory.getLogger(LogControl.class);

  private final LevelSink sink;
  private final DebugSpec seed;
  private final Set<String> warnedUnknown = new HashSet<>();
  private DebugSpec configured = DebugSpec.none();
  private boolean forced;
  private Set<String> debugSources = Set.of();

  /** Controls {@code sink}, starting from {@code seed}; call {@link #apply} to set levels. */
  public LogControl(LevelSink sink, DebugSpec seed) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.seed = Objects.requireNonNull(seed, "seed");
  }

  /**
   * Controls logback, seeded from {@code envValue} (the value of {@value #ENV}, null if unset), and
   * applies the seed at once. Throws {@link ConfigException} if the value is invalid.
   */
  public static LogControl forLogback(@Nullable String envValue) {
    DebugSpec seed;
    try {
      seed = envValue == null ? DebugSpec.none() : DebugSpec.parse(envValue);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(ENV + ": invalid value \"" + envValue + "\": " + e.getMessage(), e);
    }
    LogControl control = new LogControl(LogbackLevels.current(), seed);
    control.apply(DebugSpec.none());
    return control;
  }

  /** Applies {@code logger.Debug} of {@code config}. */
  @Override
  public void configChanged(Config config) {
    apply(DebugSpec.parse(config.logger().debug()));
  }

  /** Makes {@code configuredSpec} (on top of the seed) effective. */
  public synchronized void apply(DebugSpec configuredSpec) {
    configured = Objects.requireNonNull(configuredSpec, "configuredSpec");
    update();
  }

  /** Turns forced debugging of every source on or off; returns the new state. */
  public synchronized boolean toggleForcedDebug() {
    forced = !forced;
    LOG.info("forced debug logging of every source is now {}", forced ? "on" : "off");
    update();
    return forced;
  }

  /** Whether forced debugging is on. */
  public synchronized boolean isForcedDebug() {
    return forced;
  }

  /** The seed followed by the configured spec. */
  public synchronized DebugSpec effectiveSpec() {
    return seed.then(configured);
  }

  private void update() {
    DebugSpec spec = effectiveSpec();
    Map<String, Boolean> levels = new LinkedHashMap<>();
    LogSources.allLoggers().forEach(name -> levels.put(name, forced));
    for (DebugSpec.Entry e : spec.entries()) {
      if (e.source().equals(DebugSpec.ALL)) {
        levels.replaceAll((name, old) -> forced || e.enabled());
      } else {
        LogSources.loggersOf(e.source()).forEach(name -> levels.put(name, forced || e.enabled()));
        warnIfUnknown(e.source());
      }
    }
    levels.forEach(sink::setDebug);
    logChange(levels);
  }

  private void warnIfUnknown(String source) {
    if (LogSources.loggersOf(source).isEmpty() && warnedUnknown.add(source)) {
      LOG.warn(
          "unknown log source \"{}\" ignored; known sources: {}",
          source,
          String.join(", ", LogSources.names()));
    }
  }

  /** Logs the sources whose loggers are all at DEBUG, if that set changed. */
  private void logChange(Map<String, Boolean> levels) {
    Set<String> now = new TreeSet<>();
    for (String source : LogSources.names()) {
      if (LogSources.loggersOf(source).stream().allMatch(levels::get)) {
        now.add(source);
      }
    }
    if (!now.equals(debugSources)) {
      debugSources = Set.copyOf(now);
      String which =
          now.size() == LogSources.names().size()
              ? "every source"
              : now.isEmpty() ? "no source" : String.join(", ", now);
      LOG.info("debug logging is on for {}", which);
    }
  }
}
