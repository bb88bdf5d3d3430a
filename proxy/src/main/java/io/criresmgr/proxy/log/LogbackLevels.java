package io.criresmgr.proxy.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.util.Objects;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/** Sets levels of logback loggers. */
public final class LogbackLevels implements LevelSink {
  private final LoggerContext context;

  /** Sets levels in {@code context}. */
  public LogbackLevels(LoggerContext context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  /**
   * The sink for SLF4J's logger factory; one that does nothing if SLF4J is not bound to logback
   * (e.g. when the daemon is embedded with another backend).
   */
  public static LevelSink current() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    return factory instanceof LoggerContext context
        ? new LogbackLevels(context)
        : (name, debug) -> {};
  }

  @Override
  public void setDebug(String name, boolean debug) {
    context.getLogger(name).setLevel(debug ? Level.DEBUG : Level.INFO);
  }
}
