package io.criresmgr.policy.sysfs;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory sizes of topology specs: {@code 2G}, {@code 512M}, {@code 1Ti}, {@code 0}; binary units.
 */
final class MemorySize {
  private static final Pattern SIZE = Pattern.compile("([0-9]+)\\s*(?:([KMGTkmgt])(?:i?B|i)?|B)?");
  private static final String UNITS = "KMGT";

  private MemorySize() {}

  /**
   * The bytes of {@code text}.
   *
   * @throws IllegalArgumentException if it is not a size such as {@code 2G}
   */
  static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("expected a size such as 2G, 512M or 0");
    }
    int shift =
        m.group(2) == null ? 0 : 10 * (1 + UNITS.indexOf(m.group(2).toUpperCase(Locale.ROOT)));
    try {
      long value = Long.parseLong(m.group(1));
      if (value > Long.MAX_VALUE >> shift) {
        throw new NumberFormatException();
      }
      return value << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("too large", e);
    }
  }

  /** {@code bytes} in the largest unit that divides it, e.g. {@code 2G}. */
  static String format(long bytes) {
    for (int i = UNITS.length(); i > 0; i--) {
      long unit = 1L << (10 * i);
      if (bytes != 0 && bytes % unit == 0) {
        return bytes / unit + UNITS.substring(i - 1, i);
      }
    }
    return Long.toString(bytes);
  }
}
