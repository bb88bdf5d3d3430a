package io.criresmgr.cache;

import java.util.OptionalLong;

/**
 * Kubernetes resource quantities, for the cache's callers: the parser itself is {@link
 * io.criresmgr.adjustment.Quantities}, shared with the node agent
 * (docs/adr/0014-one-adjustment-model.md).
 */
public final class Quantities {
  private Quantities() {}

  /**
   * A CPU quantity in milli-CPUs: {@code "500m"} is 500, {@code "2"} is 2000, {@code "0.5"} is 500.
   *
   * @throws IllegalArgumentException naming the value and the accepted forms
   */
  public static long parseMilli(String text) {
    return io.criresmgr.adjustment.Quantities.parseMilli(text);
  }

  /**
   * A memory quantity in bytes: {@code "1Gi"} is 1073741824; fractions of a byte round up.
   *
   * @throws IllegalArgumentException naming the value and the accepted forms
   */
  public static long parseBytes(String text) {
    return io.criresmgr.adjustment.Quantities.parseBytes(text);
  }

  /**
   * The whole value of a plain quantity, sign kept, fractions rounded up; empty if {@code text} is
   * no quantity or does not fit a long.
   */
  public static OptionalLong parseWhole(String text) {
    return io.criresmgr.adjustment.Quantities.parseWhole(text);
  }
}
