package io.criresmgr.adjustment;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Kubernetes resource quantities ({@code 500m}, {@code 2}, {@code 1.5Gi}, {@code 129e6}): a
 * non-negative decimal number with an optional binary-SI ({@code Ki Mi Gi Ti Pi Ei}), decimal-SI
 * ({@code n u m k M G T P E}) or exponent ({@code e6}, {@code E-3}) suffix. Like Kubernetes, a
 * value that is not whole in the target unit rounds up.
 */
public final class Quantities {
  private static final String CPU_FORMS =
      "expected cores such as 2 or 0.5, or milli-cores such as 500m";
  private static final String MEMORY_FORMS =
      "expected bytes such as 128974848, 129e6, 129M, 123Mi or 1.5Gi"
          + " (suffixes k M G T P E, Ki Mi Gi Ti Pi Ei)";

  private static final Pattern NUMBER =
      Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(.*)", Pattern.DOTALL);
  // Two exponent digits are plenty for any real quantity and keep BigDecimal arithmetic cheap.
  private static final Pattern EXPONENT = Pattern.compile("[eE]([+-]?[0-9]{1,2})");
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("n", BigDecimal.ONE.scaleByPowerOfTen(-9)),
          Map.entry("u", BigDecimal.ONE.scaleByPowerOfTen(-6)),
          Map.entry("m", BigDecimal.ONE.scaleByPowerOfTen(-3)),
          Map.entry("k", BigDecimal.ONE.scaleByPowerOfTen(3)),
          Map.entry("M", BigDecimal.ONE.scaleByPowerOfTen(6)),
          Map.entry("G", BigDecimal.ONE.scaleByPowerOfTen(9)),
          Map.entry("T", BigDecimal.ONE.scaleByPowerOfTen(12)),
          Map.entry("P", BigDecimal.ONE.scaleByPowerOfTen(15)),
          Map.entry("E", BigDecimal.ONE.scaleByPowerOfTen(18)),
          Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
          Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
          Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
          Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
          Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
          Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

  private Quantities() {}

  /**
   * A CPU quantity in milli-CPUs: {@code "500m"} is 500, {@code "2"} is 2000, {@code "0.5"} is 500.
   *
   * @throws IllegalArgumentException naming the value and the accepted forms
   */
  public static long parseMilli(String text) {
    return toLong(parse(text, "CPU", CPU_FORMS).movePointRight(3), text, "CPU", CPU_FORMS);
  }

  /**
   * A memory quantity in bytes: {@code "1Gi"} is 1073741824, {@code "129M"} and {@code "129e6"} are
   * 129000000; fractions of a byte round up ({@code "100m"} is 1).
   *
   * @throws IllegalArgumentException naming the value and the accepted forms
   */
  public static long parseBytes(String text) {
    return toLong(parse(text, "memory", MEMORY_FORMS), text, "memory", MEMORY_FORMS);
  }

  /**
   * The whole value of a plain quantity, sign kept, fractions rounded up: {@code "50M"} is
   * 50000000, {@code "1.5Ki"} is 1536, {@code "1e3"} is 1000; empty if {@code text} (trimmed) is no
   * quantity or does not fit a long. For callers that word their own errors.
   */
  public static OptionalLong parseWhole(String text) {
    try {
      BigDecimal value = parse(text.trim(), "", "");
      return OptionalLong.of(value.setScale(0, RoundingMode.CEILING).longValueExact());
    } catch (IllegalArgumentException | ArithmeticException e) {
      return OptionalLong.empty();
    }
  }

  private static BigDecimal parse(String text, String what, String forms) {
    Matcher number = NUMBER.matcher(text);
    if (!number.matches()) {
      throw invalid(text, what, "not a number", forms);
    }
    BigDecimal value = new BigDecimal(number.group(1));
    String suffix = number.group(2);
    BigDecimal multiplier = SUFFIXES.get(suffix);
    if (multiplier != null) {
      return value.multiply(multiplier);
    }
    Matcher exponent = EXPONENT.matcher(suffix);
    if (exponent.matches()) {
      return value.scaleByPowerOfTen(Integer.parseInt(exponent.group(1)));
    }
    throw invalid(text, what, "unknown suffix \"" + suffix + "\"", forms);
  }

  private static long toLong(BigDecimal value, String text, String what, String forms) {
    if (value.signum() < 0) {
      throw invalid(text, what, "negative", forms);
    }
    BigDecimal whole = value.setScale(0, RoundingMode.CEILING);
    if (whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw invalid(text, what, "too large", forms);
    }
    return whole.longValueExact();
  }

  private static IllegalArgumentException invalid(
      String text, String what, String why, String forms) {
    return new IllegalArgumentException(
        "invalid " + what + " quantity \"" + text + "\": " + why + "; " + forms);
  }
}
