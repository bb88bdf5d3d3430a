package io.criresmgr.controllers.blockio;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes quantity strings as cri-resmgr's blockio section reads them ({@code
 * resource.ParseQuantity(..).Value()}): a decimal number with an optional binary suffix ({@code Ki
 * Mi Gi Ti Pi Ei}), decimal suffix ({@code n u m k M G T P E}) or exponent ({@code e3}, {@code
 * E6}); the value is rounded up to a whole number, so {@code 50M} is 50000000 and {@code 1.5Ki} is
 * 1536.
 */
final class Quantity {
  static final String FORMS =
      "a number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, k, M, G, T, P, E (e.g. 100, 50M,"
          + " 10Mi, 5k)";

  private static final Pattern SYNTAX =
      Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))([a-zA-Z]*|[eE][+-]?[0-9]+)");
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("n", new BigDecimal("1e-9")),
          Map.entry("u", new BigDecimal("1e-6")),
          Map.entry("m", new BigDecimal("1e-3")),
          Map.entry("k", new BigDecimal("1e3")),
          Map.entry("M", new BigDecimal("1e6")),
          Map.entry("G", new BigDecimal("1e9")),
          Map.entry("T", new BigDecimal("1e12")),
          Map.entry("P", new BigDecimal("1e15")),
          Map.entry("E", new BigDecimal("1e18")),
          Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
          Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
          Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
          Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
          Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
          Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

  private Quantity() {}

  /** The whole value of {@code text}, or empty when it is not a quantity or does not fit a long. */
  static OptionalLong parse(String text) {
    Matcher m = SYNTAX.matcher(text.trim());
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    BigDecimal multiplier = multiplier(m.group(2));
    if (multiplier == null) {
      return OptionalLong.empty();
    }
    BigDecimal value = new BigDecimal(m.group(1)).multiply(multiplier);
    try {
      return OptionalLong.of(value.setScale(0, RoundingMode.CEILING).longValueExact());
    } catch (ArithmeticException e) {
      return OptionalLong.empty();
    }
  }

  private static @Nullable BigDecimal multiplier(String suffix) {
    if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      int exponent = Integer.parseInt(suffix.substring(1).replace("+", ""));
      return Math.abs(exponent) > 30 ? null : BigDecimal.ONE.scaleByPowerOfTen(exponent);
    }
    return SUFFIXES.get(suffix);
  }
}
