package io.criresmgr.controllers.cpu;

/**
 * A pair of frequency limits in kHz; 0 leaves that limit alone.
 *
 * @param min the lower limit
 * @param max the upper limit
 */
record Limits(long min, long max) {
  /** No limit set. */
  static final Limits NONE = new Limits(0, 0);

  /** Checks the values are not negative. */
  Limits {
    if (min < 0 || max < 0) {
      throw new IllegalArgumentException("negative limit " + min + ".." + max);
    }
  }

  /** Whether some limit is set. */
  boolean any() {
    return min != 0 || max != 0;
  }

  /** The larger of each limit of this and {@code other}. */
  Limits largest(Limits other) {
    return new Limits(Math.max(min, other.min), Math.max(max, other.max));
  }

  /**
   * These limits made consistent: a minimum above the maximum raises the maximum to it (the faster
   * class wins, as with {@link #largest}).
   */
  Limits consistent() {
    return max != 0 && min > max ? new Limits(min, min) : this;
  }
}
