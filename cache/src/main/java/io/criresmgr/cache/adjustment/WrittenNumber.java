package io.criresmgr.cache.adjustment;

import org.jspecify.annotations.Nullable;

/**
 * A JSON number as it was written: {@link #toString()} is its text, which is what the adjustment
 * validator reads as a quantity. The numeric views are there only because {@link Number} asks for
 * them; nothing in the daemon converts an adjustment's number other than through its text.
 */
final class WrittenNumber extends Number {
  private static final long serialVersionUID = 1L;

  private final String text;

  WrittenNumber(String text) {
    this.text = text;
  }

  @Override
  public int intValue() {
    return (int) doubleValue();
  }

  @Override
  public long longValue() {
    return (long) doubleValue();
  }

  @Override
  public float floatValue() {
    return (float) doubleValue();
  }

  @Override
  public double doubleValue() {
    return Double.parseDouble(text);
  }

  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof WrittenNumber n && n.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }
}
