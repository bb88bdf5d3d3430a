package io.criresmgr.simulator;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AppenderBase;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/**
 * Captures the log lines of the in-process daemon ({@code LEVEL [logger] message}) for {@code
 * expect-log} steps, and optionally keeps them off the console while the scenario runs. Closing it
 * restores the console. Thread-safe.
 */
final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {
  /** At most this many lines are kept; older ones are dropped. */
  static final int MAX_LINES = 200_000;

  private final ArrayDeque<String> lines = new ArrayDeque<>();
  private final List<Appender<ILoggingEvent>> detached = new ArrayList<>();
  private final Logger root;
  private int dropped;

  private LogCapture(Logger root) {
    this.root = root;
  }

  /** Starts capturing; with {@code quiet}, the root logger's other appenders are detached. */
  static LogCapture start(boolean quiet) {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    LogCapture capture = new LogCapture(root);
    capture.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
    capture.setName("scenario-capture");
    capture.start();
    if (quiet) {
      for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
        capture.detached.add(it.next());
      }
      capture.detached.forEach(root::detachAppender);
    }
    root.addAppender(capture);
    return capture;
  }

  @Override
  protected synchronized void append(ILoggingEvent event) {
    if (lines.size() >= MAX_LINES) {
      lines.removeFirst();
      dropped++;
    }
    lines.add(
        event.getLevel()
            + " ["
            + shortName(event.getLoggerName())
            + "] "
            + event.getFormattedMessage());
  }

  /** The first captured line in which {@code pattern} is found. */
  synchronized Optional<String> find(Pattern pattern) {
    return lines.stream().filter(l -> pattern.matcher(l).find()).findFirst();
  }

  /** Waits up to {@code timeout} for a line matching {@code pattern}. */
  Optional<String> await(Pattern pattern, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Optional<String> found = find(pattern);
    while (found.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      found = find(pattern);
    }
    return found;
  }

  /** The last {@code n} captured lines. */
  synchronized List<String> tail(int n) {
    List<String> all = new ArrayList<>(lines);
    return List.copyOf(all.subList(Math.max(0, all.size() - n), all.size()));
  }

  /** How many lines were dropped because more than {@link #MAX_LINES} were logged. */
  synchronized int dropped() {
    return dropped;
  }

  @Override
  public void close() {
    root.detachAppender(this);
    detached.forEach(root::addAppender);
    stop();
  }

  private static String shortName(String logger) {
    return logger.substring(logger.lastIndexOf('.') + 1);
  }
}
