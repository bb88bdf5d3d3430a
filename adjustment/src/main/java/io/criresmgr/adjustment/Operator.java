package io.criresmgr.adjustment;

import java.util.Arrays;
import java.util.List;

/**
 * The operators of a container expression, with the spelling of cri-resmgr's affinity annotations,
 * and the values each takes. The cache evaluates them ({@code
 * io.criresmgr.cache.affinity.Expression}).
 */
public enum Operator {
  /** The value equals the single value ({@code *} matches any value). */
  EQUALS("Equals"),
  /** The value differs from the single value (no wildcard), or the key does not resolve. */
  NOT_EQUAL("NotEqual"),
  /** The value is one of the values ({@code *} matches any value). */
  IN("In"),
  /** The value is none of the values, or the key does not resolve. */
  NOT_IN("NotIn"),
  /** The key has a value. */
  EXISTS("Exists"),
  /** The key has no value. */
  NOT_EXIST("NotExist"),
  /** Always matches. */
  ALWAYS_TRUE("AlwaysTrue"),
  /** The value matches the single glob. */
  MATCHES("Matches"),
  /** The value does not match the single glob, or the key does not resolve. */
  MATCHES_NOT("MatchesNot"),
  /** The value matches one of the globs. */
  MATCHES_ANY("MatchesAny"),
  /** The value matches none of the globs, or the key does not resolve. */
  MATCHES_NONE("MatchesNone");

  /** Every spelling, in declaration order (the CRD's {@code enum} lists them in this order). */
  public static final List<String> LABELS = Arrays.stream(values()).map(o -> o.label).toList();

  private final String label;

  Operator(String label) {
    this.label = label;
  }

  /** The spelling, e.g. {@code NotEqual}. */
  public String label() {
    return label;
  }

  /**
   * The operator spelled {@code label} (exactly, as in cri-resmgr).
   *
   * @throws IllegalArgumentException listing the operators if there is none
   */
  public static Operator parse(String label) {
    for (Operator op : values()) {
      if (op.label.equals(label)) {
        return op;
      }
    }
    throw new IllegalArgumentException(
        "invalid operator \"" + label + "\": expected one of " + String.join(", ", LABELS));
  }

  /** Whether the values are shell globs ({@link Glob}). */
  public boolean takesGlobs() {
    return this == MATCHES || this == MATCHES_NOT || this == MATCHES_ANY || this == MATCHES_NONE;
  }

  /**
   * Checks the values against this operator.
   *
   * @throws IllegalArgumentException if {@code Equals}, {@code NotEqual}, {@code Matches} or {@code
   *     MatchesNot} has not exactly one value, {@code Exists} or {@code NotExist} has any, or a
   *     pattern is malformed
   */
  public void check(List<String> values) {
    switch (this) {
      case EQUALS, NOT_EQUAL, MATCHES, MATCHES_NOT -> {
        if (values.size() != 1) {
          throw new IllegalArgumentException(
              label + " takes exactly one value, got " + values.size());
        }
      }
      case EXISTS, NOT_EXIST -> {
        if (!values.isEmpty()) {
          throw new IllegalArgumentException(label + " takes no values, got " + values);
        }
      }
      default -> {}
    }
    if (takesGlobs()) {
      values.forEach(Glob::check);
    }
  }
}
