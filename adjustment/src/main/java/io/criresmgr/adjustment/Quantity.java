package io.criresmgr.adjustment;

import java.util.Objects;

/**
 * A resource quantity as written and as parsed.
 *
 * @param text as written ({@code "500m"}, {@code "1Gi"}; a JSON number as its text, {@code "2"})
 * @param value milli-CPUs for {@code cpu}, bytes for {@code memory} and {@code toptierLimit}
 */
public record Quantity(String text, long value) {
  /** Rejects a negative value. */
  public Quantity {
    Objects.requireNonNull(text, "text");
    if (value < 0) {
      throw new IllegalArgumentException("quantity " + text + " is negative");
    }
  }

  /**
   * A CPU quantity.
   *
   * @throws IllegalArgumentException as {@link Quantities#parseMilli} does
   */
  public static Quantity cpu(String text) {
    return new Quantity(text, Quantities.parseMilli(text));
  }

  /**
   * A memory quantity.
   *
   * @throws IllegalArgumentException as {@link Quantities#parseBytes} does
   */
  public static Quantity memory(String text) {
    return new Quantity(text, Quantities.parseBytes(text));
  }
}
