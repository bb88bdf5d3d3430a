package io.criresmgr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class LogbackSetupTest {
  @Test
  void everyProgramLogsOneLinePerEventToStderrAtInfo() {
    LoggerContext context = new LoggerContext();
    LogbackSetup setup = new LogbackSetup();
    setup.setContext(context);
    assertEquals(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, setup.configure(context));
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertEquals(Level.INFO, root.getLevel());
    ConsoleAppender<?> stderr = assertInstanceOf(ConsoleAppender.class, root.getAppender("STDERR"));
    assertEquals("System.err", stderr.getTarget());
    PatternLayoutEncoder encoder =
        assertInstanceOf(PatternLayoutEncoder.class, stderr.getEncoder());
    assertEquals("%time %-5level [%logger{0}] %request%msg%n", encoder.getPattern());
    assertEquals(Level.ERROR, context.getLogger("io.netty.bootstrap").getLevel());
    assertEquals(Level.INFO, context.getLogger("io.netty").getLevel());
    assertEquals(Level.WARN, context.getLogger("io.grpc").getLevel());
  }

  @Test
  void logbackFindsItAsAService() {
    assertEquals(
        LogbackSetup.class,
        ServiceLoader.load(Configurator.class).findFirst().orElseThrow().getClass());
  }
}
