package io.criresmgr.proxy.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import io.criresmgr.cli.LogbackSetup;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogbackHeadersTest {
  private static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level [%logger{0}] %msg%n";

  @Test
  void timeStampsGoAndComeBackOnEveryInstance() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OutputStreamAppender<ILoggingEvent> appender = appender(context, out);
    Logger log = context.getLogger("io.criresmgr.X");
    log.info("one");
    new LogbackHeaders(context).skipHeaders(true);
    log.info("two");
    new LogbackHeaders(context).skipHeaders(false);
    log.info("three");
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n", -1);
    assertTrue(lines[0].matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[X\\] one"), lines[0]);
    assertEquals("INFO  [X] two", lines[1]);
    assertTrue(lines[2].matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[X\\] three"), lines[2]);
    appender.stop();
  }

  @Test
  void onlyTheTimeStampIsDropped() {
    assertEquals("%-5level [%logger{0}] %msg%n", LogbackHeaders.withoutTimestamp(PATTERN));
    assertEquals("%level %msg%n", LogbackHeaders.withoutTimestamp("%date{ISO8601}  %level %msg%n"));
    assertEquals("%level %msg%n", LogbackHeaders.withoutTimestamp("%d %level %msg%n"));
    assertEquals("%level %msg%n", LogbackHeaders.withoutTimestamp("%level %msg%n"));
    assertEquals(
        "%-5level [%logger{0}] %request%msg%n",
        LogbackHeaders.withoutTimestamp(LogbackSetup.PATTERN));
  }

  private static OutputStreamAppender<ILoggingEvent> appender(
      LoggerContext context, ByteArrayOutputStream out) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    appender.setContext(context);
    appender.setName("OUT");
    appender.setEncoder(encoder);
    appender.setOutputStream(out);
    appender.start();
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(appender);
    return appender;
  }
}
