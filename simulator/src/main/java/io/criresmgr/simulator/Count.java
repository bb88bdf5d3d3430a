package io.criresmgr.simulator;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A condition on the size of a set: {@code 3}, {@code ">=2"}, {@code ">0"}, {@code "!=4"}.
 *
 * @param op the comparison
 * @param value the number compared with
 */
record Count(String op, int value) {
  private static final Pattern FORM = Pattern.compile("(==|!=|>=|<=|>|<)?\\s*(\\d+)");

  /** Checks the operator. */
  Count {
    if (!op.equals("==")
        && !op.equals("!=")
        && !op.equals(">=")
        && !op.equals("<=")
        && !op.equals(">")
        && !op.equals("<")) {
      throw new IllegalArgumentException("unknown comparison " + op);
    }
  }

  /**
   * Parses {@code N} or {@code OP N}.
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  static Count parse(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "invalid count \"" + text + "\", expected a number or a comparison such as \">=2\"");
    }
    return new Count(m.group(1) == null ? "==" : m.group(1), Integer.parseInt(m.group(2)));
  }

  /** Whether {@code n} satisfies the condition. */
  boolean test(int n) {
    return switch (op) {
      case "==" -> n == value;
      case "!=" -> n != value;
      case ">=" -> n >= value;
      case "<=" -> n <= value;
      case ">" -> n > value;
      default -> n < value;
    };
  }

  @Override
  public String toString() {
    return op.equals("==") ? Integer.toString(value) : op + value;
  }
}
