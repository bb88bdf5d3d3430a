package io.criresmgr.cache.affinity;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import java.util.List;
import java.util.Objects;

/**
 * A label expression {@code {key, operator, values}} evaluated against a container and its pod
 * (reference §3.6: keys {@code name}, {@code namespace}, {@code pod/name}, {@code labels/<k>}, ...;
 * operators {@code Equals}, {@code NotEqual}, {@code In}, {@code NotIn}, {@code Exists}, {@code
 * NotExist}, {@code AlwaysTrue}, {@code Matches}, {@code MatchesNot}, {@code MatchesAny}, {@code
 * MatchesNone}).
 *
 * @param key what is compared
 * @param operator how
 * @param values with what
 */
public record Expression(String key, Operator operator, List<String> values) {
  /** Checks for nulls and copies the list. */
  public Expression {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
  }

  /** Whether {@code container} of {@code pod} matches. */
  public boolean evaluate(Container container, Pod pod) {
    throw new UnsupportedOperationException("not yet: " + container + pod);
  }

  /** The operators. */
  public enum Operator {
    /** The value equals the single value. */
    EQUALS,
    /** The value differs from the single value. */
    NOT_EQUAL,
    /** The value is one of the values. */
    IN,
    /** The value is none of the values. */
    NOT_IN,
    /** The key has a value. */
    EXISTS,
    /** The key has no value. */
    NOT_EXIST,
    /** Always matches. */
    ALWAYS_TRUE,
    /** The value matches the single glob. */
    MATCHES,
    /** The value does not match the single glob. */
    MATCHES_NOT,
    /** The value matches one of the globs. */
    MATCHES_ANY,
    /** The value matches none of the globs. */
    MATCHES_NONE
  }
}
