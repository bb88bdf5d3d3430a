package io.criresmgr.policy.topologyaware;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Go's duration syntax ({@code time.ParseDuration}: {@code 10s}, {@code 1m30s}, {@code
 * 1.5h}, {@code 500ms}), which the {@code cold-start} annotation uses. The daemon's configuration
 * has its own copy in module proxy, which this module cannot depend on.
 */
final class GoDuration {
  /** What the syntax allows, for error messages. */
  static final String SYNTAX = "a duration such as 30s, 1m30s or 1h (units ns, us, ms, s, m, h)";

  private static final Pattern TERM =
      Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)");
  private static final Map<String, Long> NANOS =
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

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException if it is not a Go duration
   */
  static Duration parse(String text) {
    String s = text.strip();
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
    while (end < s.length() && m.region(end, s.length()).lookingAt()) {
      nanos =
          nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
      end = m.end();
    }
    if (end == 0 || end != s.length() || nanos.toBigInteger().bitLength() > 63) {
      throw new IllegalArgumentException("expected " + SYNTAX);
    }
    Duration d = Duration.ofNanos(nanos.longValue());
    return negative ? d.negated() : d;
  }
}
