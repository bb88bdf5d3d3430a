package io.criresmgr.controllers.rdt;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One cache allocation value: a percentage {@code "60%"}, a percentage range {@code "20-60%"}, a
 * bitmask {@code "0xff0"} or a bit list {@code "4-11"} / {@code "7,8"} (goresctrl's forms).
 *
 * @param kind which form
 * @param from lower percentage (ranges only, else 0)
 * @param to upper percentage (percentages and ranges, else 0)
 * @param mask the bitmask (bitmasks only, else 0)
 * @param text the configured text, for messages
 */
public record CacheSpec(Kind kind, int from, int to, long mask, String text) {
  /** What a value may look like, for error messages. */
  public static final String ALLOWED =
      "expected a percentage (\"60%\"), a percentage range (\"20-60%\"), a bitmask (\"0xff0\") or"
          + " a list of bits (\"4-11\", \"7,8\")";

  /** The forms of a value. */
  public enum Kind {
    /** {@code "N%"}: a share (of the cache for a partition, of the partition for a class). */
    PERCENT,
    /** {@code "A-B%"}: a slice of the partition (classes only). */
    PERCENT_RANGE,
    /** An explicit contiguous bitmask. */
    BITMASK
  }

  private static final Pattern PERCENT = Pattern.compile("(?:(\\d{1,3})-)?(\\d{1,3})%");
  private static final Pattern MASK = Pattern.compile("0[xX]([0-9a-fA-F]{1,16})");
  private static final Pattern BITS =
      Pattern.compile("\\d{1,2}(-\\d{1,2})?(,\\d{1,2}(-\\d{1,2})?)*");

  /** Checks the ranges. */
  public CacheSpec {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
    if (kind != Kind.BITMASK && !(0 <= from && from <= to && 0 < to && to <= 100)) {
      throw new IllegalArgumentException("bad percentage range " + from + "-" + to);
    }
    if (kind == Kind.BITMASK && !contiguous(mask)) {
      throw new IllegalArgumentException("not a contiguous non-empty bitmask: " + mask);
    }
  }

  /** Whether this is a percentage or a percentage range (else an explicit bitmask). */
  public boolean percent() {
    return kind != Kind.BITMASK;
  }

  /** The value {@code text}, or null if malformed. */
  static @Nullable CacheSpec parse(String text) {
    Matcher m = PERCENT.matcher(text);
    if (m.matches()) {
      int from = m.group(1) == null ? 0 : Integer.parseInt(m.group(1));
      int to = Integer.parseInt(m.group(2));
      Kind kind = m.group(1) == null ? Kind.PERCENT : Kind.PERCENT_RANGE;
      return from <= to && 0 < to && to <= 100 ? new CacheSpec(kind, from, to, 0, text) : null;
    }
    m = MASK.matcher(text);
    if (m.matches()) {
      long mask = Long.parseUnsignedLong(m.group(1), 16);
      return contiguous(mask) ? new CacheSpec(Kind.BITMASK, 0, 0, mask, text) : null;
    }
    if (BITS.matcher(text).matches()) {
      long mask = bitList(text);
      return contiguous(mask) ? new CacheSpec(Kind.BITMASK, 0, 0, mask, text) : null;
    }
    return null;
  }

  /** The bits of a list such as {@code "0-3,5"}; 0 if a bit is over 63 or a range is empty. */
  private static long bitList(String text) {
    long mask = 0;
    for (String part : text.split(",", -1)) {
      String[] r = part.split("-", -1);
      int lo = Integer.parseInt(r[0]);
      int hi = Integer.parseInt(r[r.length - 1]);
      if (hi > 63 || (r.length == 2 && lo >= hi)) {
        return 0;
      }
      mask |= bits(lo, hi + 1);
    }
    return mask;
  }

  /** Bits {@code from} (inclusive) to {@code to} (exclusive) set. */
  static long bits(int from, int to) {
    if (to <= from) {
      return 0;
    }
    return (to - from >= 64 ? -1L : (1L << (to - from)) - 1) << from;
  }

  /** Whether {@code mask} is a non-empty run of ones (the hardware requires contiguous masks). */
  static boolean contiguous(long mask) {
    long shifted = mask >>> Long.numberOfTrailingZeros(mask);
    return mask != 0 && (shifted & (shifted + 1)) == 0;
  }
}
