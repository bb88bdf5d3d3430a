package io.criresmgr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.ConsoleAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class LogbackProviderTest {
  @TempDir Path dir;
  private Properties saved;

  @BeforeEach
  void saveProperties() {
    saved = (Properties) System.getProperties().clone();
  }

  @AfterEach
  void restoreProperties() {
    System.setProperties(saved);
  }

  @Test
  void setsUpTheLinesOfLogbackSetup() {
    System.clearProperty("logback.configurationFile");
    LogbackProvider provider = new LogbackProvider();
    provider.initialize();
    LoggerContext context = assertInstanceOf(LoggerContext.class, provider.getLoggerFactory());
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertEquals(Level.INFO, root.getLevel());
    ConsoleAppender<?> stderr = assertInstanceOf(ConsoleAppender.class, root.getAppender("STDERR"));
    assertEquals(
        LogbackSetup.PATTERN,
        assertInstanceOf(PatternLayoutEncoder.class, stderr.getEncoder()).getPattern());
    assertEquals(Level.WARN, context.getLogger("io.grpc").getLevel());
    assertNotNull(provider.getMDCAdapter());
    assertNotNull(provider.getMarkerFactory());
    assertTrue(context.isStarted());
  }

  @Test
  void aConfigurationFileStillConfiguresLogback() throws IOException {
    Path xml =
        Files.writeString(
            dir.resolve("logback.xml"),
            "<configuration><appender name=\"MINE\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                + "<encoder><pattern>%msg%n</pattern></encoder></appender>"
                + "<root level=\"DEBUG\"><appender-ref ref=\"MINE\"/></root></configuration>");
    System.setProperty("logback.configurationFile", xml.toString());
    LogbackProvider provider = new LogbackProvider();
    provider.initialize();
    Logger root = ((LoggerContext) provider.getLoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
    assertNotNull(root.getAppender("MINE"));
    assertNull(root.getAppender("STDERR"));
    assertEquals(Level.DEBUG, root.getLevel());
  }

  @Test
  void selectLeavesAProviderNamedOnTheCommandLine() {
    System.setProperty(LogbackProvider.PROVIDER_PROPERTY, "some.OtherProvider");
    System.clearProperty(LogbackProvider.VERBOSITY_PROPERTY);
    LogbackProvider.select();
    assertEquals("some.OtherProvider", System.getProperty(LogbackProvider.PROVIDER_PROPERTY));
    assertNull(System.getProperty(LogbackProvider.VERBOSITY_PROPERTY));
  }

  @Test
  void selectNamesItselfAndQuietsSlf4jsNoteAboutIt() {
    System.clearProperty(LogbackProvider.PROVIDER_PROPERTY);
    System.clearProperty(LogbackProvider.VERBOSITY_PROPERTY);
    LogbackProvider.select();
    assertEquals(
        LogbackProvider.class.getName(), System.getProperty(LogbackProvider.PROVIDER_PROPERTY));
    assertEquals("WARN", System.getProperty(LogbackProvider.VERBOSITY_PROPERTY));
  }

  /** A program's first log line, in a JVM of its own: SLF4J binds to this provider silently. */
  @Test
  void aProgramSelectingItLogsItsLinesAndNothingElse() throws Exception {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                FirstLine.class.getName())
            .redirectErrorStream(true)
            .start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the program did not end");
    List<String> lines =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            .lines()
            .toList();
    assertEquals(0, process.exitValue(), String.join("\n", lines));
    assertEquals(2, lines.size(), String.join("\n", lines));
    assertTrue(
        lines.get(0).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[first\\] hello"),
        lines.get(0));
    assertEquals(LoggerContext.class.getName(), lines.get(1));
  }

  /** The program of {@link #aProgramSelectingItLogsItsLinesAndNothingElse}. */
  static final class FirstLine {
    private FirstLine() {}

    public static void main(String[] args) {
      LogbackProvider.select();
      LoggerFactory.getLogger("first").info("hello");
      System.err.flush();
      System.out.println(LoggerFactory.getILoggerFactory().getClass().getName());
    }
  }
}
