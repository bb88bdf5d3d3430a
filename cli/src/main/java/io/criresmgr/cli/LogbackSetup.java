package io.criresmgr.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Logging of cri-resmgr, cri-resmgr-agent, cri-resmgr-agent-probe and cri-resmgr-webhook: one
 * compact line per event on stderr (journald or the container runtime adds time stamps of its own),
 * set up in code because logback's XML configuration costs the daemon about a tenth of its start-up
 * (docs/benchmarks.md, "Start-up"). A {@code logback.configurationFile} property, or a {@code
 * logback.xml} or {@code logback-test.xml} on the class path, is left to logback instead. The
 * daemon's debug logging per source is switched at run time by {@code LogControl} (module proxy);
 * no {@code io.criresmgr} level is set here.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogbackSetup extends ContextAwareBase implements Configurator {
  /**
   * The line format: local time as {@code HH:mm:ss.SSS} ({@link TimeConverter}), level, the
   * logger's simple name, the request the line belongs to (if any, {@link RequestConverter}), the
   * message.
   */
  public static final String PATTERN = "%time %-5level [%logger{0}] %request%msg%n";

  /**
   * Library levels: netty warns "Unknown channel option 'SO_KEEPALIVE'" on every Unix socket
   * connection, and grpc's INFO lines are per connection.
   */
  static final Map<String, Level> LEVELS =
      Map.of("io.netty.bootstrap", Level.ERROR, "io.netty", Level.INFO, "io.grpc", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (configuredElsewhere()) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    apply(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Sets up {@code context}: the stderr appender, the line format and the library levels. */
  static void apply(LoggerContext context) {
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder(context));
    stderr.start();
    LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(stderr);
  }

  private static PatternLayoutEncoder encoder(LoggerContext context) {
    registerConverters(context);
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    return encoder;
  }

  /** Makes {@code %request} and {@code %time} known to the patterns of {@code context}. */
  static void registerConverters(LoggerContext context) {
    @SuppressWarnings("unchecked") // logback keeps its registry as an untyped context object
    Map<String, Supplier<DynamicConverter<?>>> registry =
        (Map<String, Supplier<DynamicConverter<?>>>)
            context.getObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS);
    if (registry == null) {
      registry = new HashMap<>();
      context.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, registry);
    }
    registry.put(RequestConverter.KEYWORD, RequestConverter::new);
    registry.put(TimeConverter.KEYWORD, TimeConverter::new);
  }

  static boolean configuredElsewhere() {
    ClassLoader loader = LogbackSetup.class.getClassLoader();
    return System.getProperty("logback.configurationFile") != null
        || loader.getResource("logback-test.xml") != null
        || loader.getResource("logback.xml") != null;
  }
}
