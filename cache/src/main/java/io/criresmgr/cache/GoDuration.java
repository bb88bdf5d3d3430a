package io.criresmgr.cache;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's duration syntax ({@code time.ParseDuration} and {@code Duration.String}), which cri-resmgr's
 * configuration and flags use: {@code 15s}, {@code 1m30s}, {@code 500ms}, {@code 1.5h}.
 */
public final class GoDuration {
  /** What the syntax allows, for messages that say what was expected. */
  public static final String FORM =
      "a duration such as 15s, 1m30s or 500ms (units ns, us, ms, s, m, h)";

  /** What the syntax allows, for error messages. */
  public static final String SYNTAX = "expected " + FORM;

  private static final Pattern TERM =
      Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)");
  private static final Map<String, Long> NANOS_PER_UNIT =
      Map.of(
          "ns", 1L,
          "us", 1_000L,
          "\u00b5s", 1_000L,
          "\u03bcs", 1_000L,
          "ms", 1_000_000L,
          "s", 1_000_000_000L,
          "m", 60_000_000_000L,
          "h", 3_600_000_000_000L);

  private GoDuration() {}

  /** Parses {@code text}; throws {@link IllegalArgumentException} with {@link #SYNTAX}. */
  public static Duration parse(String text) {
    String s = text.trim();
    boolean negative = s.startsWith("-");
    if (negative || s.startsWith("+")) {
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = TERM.matcher(s);
    BigDecimal nanos = BigDecimal.ZERO;
    int end = 0;
    while (m.lookingAt() && end < s.length()) {
      BigDecimal unit =
          BigDecimal.valueOf(
              Objects.requireNonNull(
                  NANOS_PER_UNIT.get(m.group(2)), "TERM matches only known units"));
      nanos = nanos.add(new BigDecimal(m.group(1)).multiply(unit));
      end = m.end();
      m.region(end, s.length());
    }
    if (end == 0 || end != s.length()) {
      throw new IllegalArgumentException(SYNTAX);
    }
    BigInteger whole = nanos.toBigInteger();
    if (whole.bitLength() > 63) {
      throw new IllegalArgumentException("duration too long, " + SYNTAX);
    }
    Duration d = Duration.ofNanos(whole.longValueExact());
    return negative ? d.negated() : d;
  }

  /** Formats like Go's {@code Duration.String()}: {@code 0s}, {@code 500ms}, {@code 1h2m3.5s}. */
  public static String format(Duration duration) {
    if (duration.isNegative()) {
      return "-" + format(duration.negated());
    }
    if (duration.isZero()) {
      return "0s";
    }
    if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
      long n = duration.toNanos();
      if (n < 1_000) {
        return n + "ns";
      }
      return n < 1_000_000 ? fraction(n, 1_000) + "\u00b5s" : fraction(n, 1_000_000) + "ms";
    }
    long seconds = duration.getSeconds();
    StringBuilder out = new StringBuilder();
    if (seconds >= 3600) {
      out.append(seconds / 3600).append('h');
    }
    if (seconds >= 60) {
      out.append(seconds % 3600 / 60).append('m');
    }
    long nanos = seconds % 60 * 1_000_000_000L + duration.getNano();
    return out.append(fraction(nanos, 1_000_000_000L)).append('s').toString();
  }

  private static String fraction(long value, long unit) {
    return BigDecimal.valueOf(value)
        .divide(BigDecimal.valueOf(unit))
        .stripTrailingZeros()
        .toPlainString();
  }
}
