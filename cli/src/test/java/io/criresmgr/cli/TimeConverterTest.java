package io.criresmgr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TimeConverterTest {
  private static final DateTimeFormatter LOGBACK_D = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private static String expected(String zone, long millis) {
    return LOGBACK_D.withZone(ZoneId.of(zone)).format(Instant.ofEpochMilli(millis));
  }

  /** Zones with daylight saving time, half- and quarter-hour offsets and a changed base offset. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "UTC",
        "Europe/Helsinki",
        "America/New_York",
        "America/St_Johns",
        "Asia/Kathmandu",
        "Pacific/Chatham",
        "Australia/Lord_Howe",
        "Pacific/Apia",
        "Asia/Kolkata"
      })
  void printsWhatLogbacksDatePrintsInEveryZone(String zone) {
    TimeConverter converter = new TimeConverter(TimeZone.getTimeZone(zone));
    SplittableRandom random = new SplittableRandom(zone.hashCode());
    long from = Instant.parse("1965-01-01T00:00:00Z").toEpochMilli();
    long to = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();
    for (int i = 0; i < 2_000; i++) {
      long millis = random.nextLong(from, to);
      assertEquals(expected(zone, millis), converter.format(millis), zone + " at " + millis);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"Europe/Helsinki", "America/New_York", "Australia/Lord_Howe"})
  void followsEveryDaylightSavingTransition(String zone) {
    TimeConverter converter = new TimeConverter(TimeZone.getTimeZone(zone));
    ZoneOffsetTransition transition =
        ZoneId.of(zone).getRules().nextTransition(Instant.parse("2026-01-01T00:00:00Z"));
    for (int year = 0; year < 3; year++) {
      long at = transition.getInstant().toEpochMilli();
      for (long millis : List.of(at - 1, at, at + 1, at - 3_600_000, at + 3_600_000)) {
        assertEquals(expected(zone, millis), converter.format(millis), zone + " at " + millis);
      }
      transition = ZoneId.of(zone).getRules().nextTransition(transition.getInstant());
    }
  }

  @Test
  void padsEveryField() {
    TimeConverter utc = new TimeConverter(TimeZone.getTimeZone("UTC"));
    assertEquals("00:00:00.000", utc.format(0));
    assertEquals("01:02:03.004", utc.format(3_723_004));
    assertEquals("23:59:59.999", utc.format(-1));
    assertEquals(
        "07:08:09.010",
        utc.format(ZonedDateTime.parse("2026-11-27T07:08:09.010Z").toInstant().toEpochMilli()));
  }

  @Test
  void theProgramsPatternStartsWithTheLocalTime() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    LogbackSetup.registerConverters(context);
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(LogbackSetup.PATTERN);
    encoder.start();
    LoggingEvent event = new LoggingEvent();
    event.setLoggerContext(context);
    event.setLevel(Level.INFO);
    event.setLoggerName("io.criresmgr.X");
    event.setMessage("hello");
    event.setTimeStamp(1_795_000_000_123L);
    String line = new String(encoder.encode(event), StandardCharsets.UTF_8);
    String time =
        LOGBACK_D
            .withZone(TimeZone.getDefault().toZoneId())
            .format(Instant.ofEpochMilli(1_795_000_000_123L));
    assertEquals(time + " INFO  [X] hello" + System.lineSeparator(), line);
    assertTrue(line.matches("\\d\\d:\\d\\d:\\d\\d\\.123 .*\\R"), line);
  }
}
