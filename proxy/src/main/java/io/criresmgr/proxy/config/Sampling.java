package io.criresmgr.proxy.config;

import java.util.Locale;

/**
 * Values of {@code instrumentation.Sampling}: {@code disabled} (0), {@code production} (0.1),
 * {@code testing} (1) or a ratio between 0 and 1.
 */
public final class Sampling {
  /** What is allowed, for error messages. */
  public static final String SYNTAX =
      "expected disabled, production, testing or a number between 0 and 1";

  private Sampling() {}

  /** The sampling ratio of {@code value}; throws {@link IllegalArgumentException} if invalid. */
  public static double ratio(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "disabled" -> 0;
      case "production" -> 0.1;
      case "testing" -> 1;
      default -> number(value);
    };
  }

  private static double number(String value) {
    double ratio;
    try {
      ratio = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(SYNTAX, e);
    }
    if (!(ratio >= 0 && ratio <= 1)) {
      throw new IllegalArgumentException(SYNTAX);
    }
    return ratio;
  }
}
