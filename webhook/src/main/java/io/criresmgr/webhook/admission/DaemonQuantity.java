package io.criresmgr.webhook.admission;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks that a {@code cpu} or {@code memory} quantity is one the daemon reads from the annotation
 * (the grammar of {@code io.criresmgr.cache.Quantities}, which this module does not depend on): a
 * non-negative decimal with a Kubernetes suffix or a two-digit exponent, whose milli-CPUs or bytes
 * fit a long. A pod whose annotation the daemon would refuse cannot start on the node, so the
 * webhook leaves such a pod unannotated instead.
 */
final class DaemonQuantity {
  private static final Pattern NUMBER =
      Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(.*)", Pattern.DOTALL);
  private static final Pattern EXPONENT = Pattern.compile("[eE]([+-]?[0-9]{1,2})");
  private static final Map<String, Integer> DECIMAL =
      Map.of("", 0, "n", -9, "u", -6, "m", -3, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
  private static final Map<String, Integer> BINARY =
      Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
  private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private DaemonQuantity() {}

  /**
   * Checks {@code text}, the quantity of {@code resource} at {@code path}; other resources pass.
   *
   * @throws IllegalArgumentException naming the path and the value if the daemon would refuse it
   */
  static void check(String resource, String text, String path) {
    int shift =
        switch (resource) {
          case "cpu" -> 3;
          case "memory" -> 0;
          default -> -1;
        };
    if (shift < 0) {
      return;
    }
    BigDecimal value = value(text);
    if (value == null
        || value.signum() < 0
        || value.movePointRight(shift).setScale(0, RoundingMode.CEILING).compareTo(MAX) > 0) {
      throw new IllegalArgumentException(
          path
              + ": \""
              + text
              + "\" is not a non-negative "
              + resource
              + " quantity the node reads");
    }
  }

  private static @Nullable BigDecimal value(String text) {
    Matcher number = NUMBER.matcher(text);
    if (!number.matches()) {
      return null;
    }
    BigDecimal value = new BigDecimal(number.group(1));
    String suffix = number.group(2);
    if (DECIMAL.containsKey(suffix)) {
      return value.scaleByPowerOfTen(DECIMAL.get(suffix));
    }
    if (BINARY.containsKey(suffix)) {
      return value.multiply(BigDecimal.valueOf(1L << BINARY.get(suffix)));
    }
    Matcher exponent = EXPONENT.matcher(suffix);
    return exponent.matches() ? value.scaleByPowerOfTen(Integer.parseInt(exponent.group(1))) : null;
  }
}
