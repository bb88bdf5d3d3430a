package io.criresmgr.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * The contract every fuzz target checks: a parser returns a value or refuses the input with its
 * documented exception type and a message that says something. Any other throwable (a
 * NullPointerException, an IllegalStateException, a StackOverflowError, ...) escapes and is a
 * finding.
 */
public final class Refusals {
  private Refusals() {}

  /**
   * The value {@code parse} returns, or empty if it threw {@code documented} (or a subclass) with a
   * non-blank message.
   */
  public static <T> Optional<T> valueOrRefusal(
      Class<? extends Exception> documented, Callable<T> parse) throws Exception {
    return valueOrRefusal(documented, "", parse);
  }

  /** Like {@link #valueOrRefusal(Class, Callable)}, and the message must contain {@code names}. */
  public static <T> Optional<T> valueOrRefusal(
      Class<? extends Exception> documented, String names, Callable<T> parse) throws Exception {
    try {
      T value = parse.call();
      assertNotNull(value, "a parser returned null instead of a value or a refusal");
      return Optional.of(value);
    } catch (Exception e) {
      if (!documented.isInstance(e)) {
        throw e;
      }
      String message = e.getMessage();
      assertFalse(message == null || message.isBlank(), "a refusal without a message: " + e);
      assertTrue(message.contains(names), "the refusal does not name " + names + ": " + e);
      return Optional.empty();
    }
  }
}
