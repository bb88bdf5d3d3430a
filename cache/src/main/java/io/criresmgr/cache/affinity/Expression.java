package io.criresmgr.cache.affinity;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A label expression {@code {key, operator, values}} evaluated against a container and its pod (as
 * in cri-resmgr's {@code cache/affinity.go}: keys {@code name}, {@code namespace}, {@code
 * pod/name}, {@code labels/<k>}, ...; operators {@code Equals}, {@code NotEqual}, {@code In},
 * {@code NotIn}, {@code Exists}, {@code NotExist}, {@code AlwaysTrue}, {@code Matches}, {@code
 * MatchesNot}, {@code MatchesAny}, {@code MatchesNone}). See {@link KeyPath} for the keys and
 * {@link Glob} for the patterns.
 *
 * @param key what is compared
 * @param operator how
 * @param values with what
 */
public record Expression(String key, Operator operator, List<String> values) {
  /**
   * Checks for nulls, copies the list and checks the values against the operator.
   *
   * @throws IllegalArgumentException if {@code Equals}, {@code NotEqual}, {@code Matches} or {@code
   *     MatchesNot} has not exactly one value, {@code Exists} or {@code NotExist} has any, or a
   *     pattern is malformed
   */
  public Expression {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
    operator.check(values);
  }

  /** Whether {@code container} of {@code pod} matches. */
  public boolean evaluate(Container container, Pod pod) {
    if (operator == Operator.ALWAYS_TRUE) {
      return true;
    }
    String value = KeyPath.resolve(key, container, pod);
    return operator.test(value, values);
  }

  /**
   * The value of expression key {@code key} (as in {@link #key()}) for {@code container} of {@code
   * pod}, {@code null} if it does not resolve.
   */
  public static @Nullable String valueOf(String key, Container container, Pod pod) {
    return KeyPath.resolve(key, container, pod);
  }

  @Override
  public String toString() {
    return "<" + key + " " + operator.label() + " " + String.join(",", values) + ">";
  }

  /**
   * The operators, with the spelling of cri-resmgr's annotations: one for each of the shared {@link
   * io.criresmgr.adjustment.Operator}, which knows the spellings and the values each takes
   * (docs/adr/0014-one-adjustment-model.md); this enum adds the evaluation.
   */
  public enum Operator {
    /** The value equals the single value ({@code *} matches any value). */
    EQUALS,
    /** The value differs from the single value (no wildcard), or the key does not resolve. */
    NOT_EQUAL,
    /** The value is one of the values ({@code *} matches any value). */
    IN,
    /** The value is none of the values, or the key does not resolve. */
    NOT_IN,
    /** The key has a value. */
    EXISTS,
    /** The key has no value. */
    NOT_EXIST,
    /** Always matches. */
    ALWAYS_TRUE,
    /** The value matches the single glob. */
    MATCHES,
    /** The value does not match the single glob, or the key does not resolve. */
    MATCHES_NOT,
    /** The value matches one of the globs. */
    MATCHES_ANY,
    /** The value matches none of the globs, or the key does not resolve. */
    MATCHES_NONE;

    /** The annotation spelling, e.g. {@code NotEqual}. */
    public String label() {
      return shared().label();
    }

    /** The shared operator of the same name. */
    public io.criresmgr.adjustment.Operator shared() {
      return io.criresmgr.adjustment.Operator.valueOf(name());
    }

    /** The operator of the same name as the shared {@code operator}. */
    public static Operator of(io.criresmgr.adjustment.Operator operator) {
      return valueOf(operator.name());
    }

    /**
     * The operator spelled {@code label} (exactly, as in cri-resmgr).
     *
     * @throws IllegalArgumentException listing the operators if there is none
     */
    public static Operator parse(String label) {
      return of(io.criresmgr.adjustment.Operator.parse(label));
    }

    private void check(List<String> values) {
      shared().check(values);
    }

    private boolean test(@org.jspecify.annotations.Nullable String value, List<String> values) {
      return switch (this) {
        case EQUALS, IN -> value != null && anyEqual(value, values);
        // no wildcard here, as in cri-resmgr
        case NOT_EQUAL -> !(value != null && values.get(0).equals(value));
        case NOT_IN -> !(value != null && anyEqual(value, values));
        case MATCHES, MATCHES_ANY -> value != null && anyMatch(value, values);
        case MATCHES_NOT, MATCHES_NONE -> !(value != null && anyMatch(value, values));
        case EXISTS -> value != null;
        case NOT_EXIST -> value == null;
        default -> true;
      };
    }

    private static boolean anyEqual(String value, List<String> values) {
      return values.stream().anyMatch(v -> v.equals(value) || v.equals("*"));
    }

    private static boolean anyMatch(String value, List<String> patterns) {
      return patterns.stream().anyMatch(p -> Glob.matches(p, value));
    }
  }
}
