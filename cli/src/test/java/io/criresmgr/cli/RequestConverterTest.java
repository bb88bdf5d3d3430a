package io.criresmgr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestConverterTest {
  private final LoggerContext context = new LoggerContext();

  private LoggingEvent event(Map<String, String> mdc) {
    Logger logger = context.getLogger("io.criresmgr.proxy.core.CreateRequests");
    LoggingEvent event =
        new LoggingEvent(
            Logger.FQCN, logger, Level.INFO, "re-creation of {}", null, new Object[] {"x"});
    event.setMDCPropertyMap(mdc);
    event.setTimeStamp(0);
    return event;
  }

  @Test
  void showsTheMethodBareThenPodContainerAndOtherKeys() {
    Map<String, String> mdc = new LinkedHashMap<>();
    mdc.put("zone", "z1");
    mdc.put(RequestConverter.CONTAINER, "web");
    mdc.put(RequestConverter.POD, "0123456789ab");
    mdc.put(RequestConverter.METHOD, "CreateContainer");
    assertEquals(
        "CreateContainer pod=0123456789ab container=web zone=z1: ",
        new RequestConverter().convert(event(mdc)));
  }

  @Test
  void showsNothingOutsideARequest() {
    assertEquals("", new RequestConverter().convert(event(Map.of())));
  }

  @Test
  void showsWhatThereIsWithoutAMethod() {
    assertEquals(
        "container=web: ",
        new RequestConverter().convert(event(Map.of(RequestConverter.CONTAINER, "web"))));
  }

  @Test
  void theProgramsPatternPutsTheRequestBeforeTheMessage() {
    LogbackSetup setup = new LogbackSetup();
    setup.setContext(context);
    setup.configure(context);
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(LogbackSetup.PATTERN.replace("%time ", ""));
    encoder.start();
    Map<String, String> mdc = new LinkedHashMap<>();
    mdc.put(RequestConverter.METHOD, "StartContainer");
    mdc.put(RequestConverter.CONTAINER, "0123456789ab");
    assertEquals(
        "INFO  [CreateRequests] StartContainer container=0123456789ab: re-creation of x"
            + System.lineSeparator(),
        new String(encoder.encode(event(mdc)), StandardCharsets.UTF_8));
    assertEquals(
        "INFO  [CreateRequests] re-creation of x" + System.lineSeparator(),
        new String(encoder.encode(event(Map.of())), StandardCharsets.UTF_8));
  }
}
