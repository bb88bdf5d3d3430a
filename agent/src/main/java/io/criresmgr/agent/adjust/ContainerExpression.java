package io.criresmgr.agent.adjust;

import java.util.List;
import java.util.Objects;

/**
 * One container expression of an adjustment's scope, passed to the daemon as written; the daemon
 * evaluates it against each container.
 *
 * @param key what to look at, e.g. {@code name}, {@code pod/labels/app}
 * @param operator one of {@link #OPERATORS}
 * @param values the operator's operands (none for {@code Exists}, {@code NotExist})
 */
public record ContainerExpression(String key, String operator, List<String> values) {
  /** The operators the daemon accepts (cri-resmgr's spelling, as in the cache's Expression). */
  public static final List<String> OPERATORS =
      List.of(
          "Equals",
          "NotEqual",
          "In",
          "NotIn",
          "Exists",
          "NotExist",
          "AlwaysTrue",
          "Matches",
          "MatchesNot",
          "MatchesAny",
          "MatchesNone");

  /** Rejects an empty key and an unknown operator. */
  public ContainerExpression {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
    if (key.isEmpty()) {
      throw new IllegalArgumentException("empty key");
    }
    if (!OPERATORS.contains(operator)) {
      throw new IllegalArgumentException(
          "invalid operator \"" + operator + "\": expected one of " + String.join(", ", OPERATORS));
    }
  }
}
