package io.criresmgr.controllers;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures what the loggers of some classes log, for tests that assert log lines; shared by the
 * controllers' tests. Create it per test and {@link #close()} it after.
 */
public final class LogCapture implements AutoCloseable {
  private final List<Logger> loggers;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(List<Logger> loggers) {
    this.loggers = loggers;
    appender.start();
    loggers.forEach(l -> l.addAppender(appender));
  }

  /** Starts capturing what the loggers of {@code sources} log. */
  public static LogCapture of(Class<?>... sources) {
    return new LogCapture(
        Arrays.stream(sources).map(c -> (Logger) LoggerFactory.getLogger(c)).toList());
  }

  /** Every event logged so far, in order. */
  public List<ILoggingEvent> events() {
    return List.copyOf(appender.list);
  }

  /** Every formatted message logged so far, in order. */
  public List<String> messages() {
    return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  /** The formatted messages logged at {@code level} so far, in order. */
  public List<String> messages(Level level) {
    return appender.list.stream()
        .filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** Stops capturing. */
  @Override
  public void close() {
    loggers.forEach(l -> l.detachAppender(appender));
  }
}
