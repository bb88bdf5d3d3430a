package io.criresmgr.controllers.rdt;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cache allocation value: a percentage {@code "60%"} (same as {@code "0-60%"}), a percentage
 * range {@code "20-60%"}, a bitmask {@code "0xff0"} or a bit range {@code "4-11"}.
 *
 * @param percent whether this is a percentage range (else an explicit bitmask)
 * @param from lower percentage (percent only)
 * @param to upper percentage (percent only)
 * @param mask the bitmask (bitmask only, else 0)
 * @param text the configured text, for messages
 */
public record CacheSpec(boolean percent, int from, int to, long mask, String text) {
  /** What a value may look like, for error messages. */
  public static final String ALLOWED =
      "expected a percentage (\"60%\"), a percentage range (\"20-60%\"), a bitmask (\"0xff0\") or"
          + " a bit range (\"4-11\")";

  private static final Pattern PERCENT = Pattern.compile("(?:(\\d{1,3})-)?(\\d{1,3})%");
  private static final Pattern MASK = Pattern.compile("0[xX]([0-9a-fA-F]{1,15})");
  private static final Pattern BITS = Pattern.compile("(\\d{1,2})-(\\d{1,2})");

  /** Checks the ranges. */
  public CacheSpec {
    if (percent && !(0 <= from && from < to && to <= 100)) {
      throw new IllegalArgumentException("bad percentage range " + from + "-" + to);
    }
    if (!percent && !contiguous(mask)) {
      throw new IllegalArgumentException("not a contiguous non-empty bitmask: " + mask);
    }
  }

  /** The value {@code text}, or null if malformed. */
  static @org.jspecify.annotations.Nullable CacheSpec parse(String text) {
    Matcher m = PERCENT.matcher(text);
    if (m.matches()) {
      int from = m.group(1) == null ? 0 : Integer.parseInt(m.group(1));
      int to = Integer.parseInt(m.group(2));
      return from < to && to <= 100 ? new CacheSpec(true, from, to, 0, text) : null;
    }
    m = MASK.matcher(text);
    if (m.matches()) {
      long mask = Long.parseLong(m.group(1), 16);
      return contiguous(mask) ? new CacheSpec(false, 0, 0, mask, text) : null;
    }
    m = BITS.matcher(text);
    if (m.matches()) {
      int lo = Integer.parseInt(m.group(1));
      int hi = Integer.parseInt(m.group(2));
      return lo <= hi && hi < 63 ? new CacheSpec(false, 0, 0, bits(lo, hi + 1), text) : null;
    }
    return null;
  }

  /** Bits {@code from} (inclusive) to {@code to} (exclusive) set. */
  static long bits(int from, int to) {
    return to <= from ? 0 : ((1L << (to - from)) - 1) << from;
  }

  /** Whether {@code mask} is a non-empty run of ones (the hardware requires contiguous masks). */
  static boolean contiguous(long mask) {
    long shifted = mask >>> Long.numberOfTrailingZeros(mask);
    return mask != 0 && (shifted & (shifted + 1)) == 0;
  }
}
