package io.criresmgr.cli;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.Objects;
import java.util.TimeZone;

/**
 * {@code %time} in a logback pattern: the event's local time as {@code HH:mm:ss.SSS}, what {@code
 * %d{HH:mm:ss.SSS}} prints. It reads the zone's offsets through {@link TimeZone}, not {@code
 * java.time}: logback's {@code %d} asks {@code ZoneId.systemDefault()}, whose first use looks for
 * time-zone rule providers in every jar on the class path, which cost the daemon's start-up 20-90
 * ms on its main thread (docs/benchmarks.md, "Start-up").
 */
public final class TimeConverter extends ClassicConverter {
  /** The pattern keyword. */
  public static final String KEYWORD = "time";

  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final TimeZone zone;

  /** The converter for the JVM's default time zone. */
  public TimeConverter() {
    this(TimeZone.getDefault());
  }

  /** The converter for {@code zone}. */
  TimeConverter(TimeZone zone) {
    this.zone = Objects.requireNonNull(zone, "zone");
  }

  @Override
  public String convert(ILoggingEvent event) {
    return format(event.getTimeStamp());
  }

  /** {@code epochMillis} in the zone as {@code HH:mm:ss.SSS}. */
  String format(long epochMillis) {
    long ofDay = Math.floorMod(epochMillis + zone.getOffset(epochMillis), MILLIS_PER_DAY);
    int millis = (int) (ofDay % 1000);
    int seconds = (int) (ofDay / 1000);
    char[] text = new char[12];
    two(text, 0, seconds / 3600);
    text[2] = ':';
    two(text, 3, seconds / 60 % 60);
    text[5] = ':';
    two(text, 6, seconds % 60);
    text[8] = '.';
    text[9] = digit(millis / 100);
    two(text, 10, millis % 100);
    return new String(text);
  }

  private static void two(char[] text, int at, int value) {
    text[at] = digit(value / 10);
    text[at + 1] = digit(value % 10);
  }

  private static char digit(int value) {
    return (char) ('0' + value);
  }
}
