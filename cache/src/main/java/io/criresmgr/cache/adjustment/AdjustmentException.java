package io.criresmgr.cache.adjustment;

/** A {@code SetAdjustment} payload that cannot be used; the message says why. */
public final class AdjustmentException extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean undecodable;

  /** An exception; {@code undecodable} when the payload is no JSON object at all. */
  public AdjustmentException(String message, boolean undecodable) {
    super(message);
    this.undecodable = undecodable;
  }

  /** Whether the payload is not JSON (rather than JSON with invalid specs). */
  public boolean undecodable() {
    return undecodable;
  }
}
