package io.criresmgr.proxy.log;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import java.util.Iterator;
import java.util.Objects;
import java.util.regex.Pattern;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Drops the time stamp ({@code %d}/{@code %date}/{@code %time} and the blanks after it) from the
 * patterns of the root logger's console and file appenders, and puts it back. The daemon's logging
 * (LogbackSetup in module cli) logs {@code %time %-5level [%logger{0}] %request%msg%n}; without the
 * time stamp the journal's own stamps remain. Patterns without a time stamp are left as they are.
 */
public final class LogbackHeaders implements HeaderSink {
  private static final Pattern TIMESTAMP = Pattern.compile("%(?:date|d|time)(?:\\{[^}]*\\})*\\s*");

  private static final String ORIGINAL = LogbackHeaders.class.getName() + ".original.";

  private final LoggerContext context;

  /** Changes the appenders of {@code context}'s root logger. */
  public LogbackHeaders(LoggerContext context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  /** The sink for SLF4J's logger factory; one doing nothing if SLF4J is not bound to logback. */
  public static HeaderSink current() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    return factory instanceof LoggerContext context ? new LogbackHeaders(context) : skip -> {};
  }

  /** {@code pattern} without its time stamp. */
  static String withoutTimestamp(String pattern) {
    return TIMESTAMP.matcher(pattern).replaceAll("");
  }

  @Override
  public synchronized void skipHeaders(boolean skip) {
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender
          && appender.getEncoder() instanceof PatternLayoutEncoder encoder) {
        String initial = original(appender.getName(), encoder.getPattern());
        String wanted = skip ? withoutTimestamp(initial) : initial;
        if (!wanted.equals(encoder.getPattern())) {
          appender.setEncoder(encoder(wanted, encoder));
        }
      }
    }
  }

  /**
   * The appender's pattern before any change, kept in the logger context so that another instance
   * (a second start in one JVM, as in tests) restores it too.
   */
  private String original(String appender, String current) {
    Object kept = context.getObject(ORIGINAL + appender);
    if (kept instanceof String pattern) {
      return pattern;
    }
    context.putObject(ORIGINAL + appender, current);
    return current;
  }

  private PatternLayoutEncoder encoder(String pattern, PatternLayoutEncoder like) {
    PatternLayoutEncoder e = new PatternLayoutEncoder();
    e.setContext(context);
    e.setPattern(pattern);
    e.setCharset(like.getCharset());
    e.start();
    return e;
  }
}
