package io.criresmgr.adjustment;

import java.util.List;
import java.util.Objects;

/**
 * One container expression of an adjustment's scope, as written; the daemon evaluates it against
 * each container.
 *
 * @param key what to look at, e.g. {@code name}, {@code pod/labels/app}
 * @param operator how to compare
 * @param values the operator's operands (none for {@code Exists}, {@code NotExist})
 */
public record ContainerExpression(String key, Operator operator, List<String> values) {
  /**
   * Copies the values and checks them against the operator.
   *
   * @throws IllegalArgumentException as {@link Operator#check} does
   */
  public ContainerExpression {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    values = List.copyOf(values);
    operator.check(values);
  }
}
