package io.criresmgr.cli;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code %request} in a logback pattern: the log context of the request a line belongs to (the
 * SLF4J MDC), as {@code "CreateContainer pod=… container=…: "}, or nothing outside a request. The
 * {@value #METHOD} value comes first and bare, then {@value #POD}, {@value #CONTAINER} and any
 * other key as {@code key=value}.
 */
public final class RequestConverter extends ClassicConverter {
  /** The pattern keyword. */
  public static final String KEYWORD = "request";

  /** MDC key of the CRI method a line belongs to. */
  public static final String METHOD = "method";

  /** MDC key of the pod a line belongs to. */
  public static final String POD = "pod";

  /** MDC key of the container a line belongs to. */
  public static final String CONTAINER = "container";

  @Override
  public String convert(ILoggingEvent event) {
    Map<String, String> mdc = event.getMDCPropertyMap();
    if (mdc == null || mdc.isEmpty()) {
      return "";
    }
    StringBuilder line = new StringBuilder();
    String method = mdc.get(METHOD);
    if (method != null) {
      line.append(method);
    }
    append(line, POD, mdc.get(POD));
    append(line, CONTAINER, mdc.get(CONTAINER));
    List<String> others = new ArrayList<>(mdc.keySet());
    others.removeAll(List.of(METHOD, POD, CONTAINER));
    others.sort(null);
    others.forEach(key -> append(line, key, mdc.get(key)));
    return line.length() == 0 ? "" : line.append(": ").toString();
  }

  private static void append(StringBuilder line, String key, @Nullable String value) {
    if (value == null) {
      return;
    }
    if (line.length() > 0) {
      line.append(' ');
    }
    line.append(key).append('=').append(value);
  }
}
