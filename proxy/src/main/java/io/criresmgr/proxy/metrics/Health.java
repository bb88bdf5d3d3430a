package io.criresmgr.proxy.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * The daemon's health, served at {@code /healthz}: each part that works in the background (the
 * relay socket, the cache saver, the pipeline) registers a check that names its problem, if any.
 * Checks are asked when health is read, so nothing can report "healthy" from a thread that died.
 * Thread-safe.
 */
public final class Health {
  private final Map<String, Supplier<Optional<String>>> checks = new ConcurrentSkipListMap<>();

  /** Adds (or replaces) the check of {@code part}; it returns the problem, or empty when well. */
  public void register(String part, Supplier<Optional<String>> check) {
    checks.put(Objects.requireNonNull(part, "part"), Objects.requireNonNull(check, "check"));
  }

  /** Removes the check of {@code part}. */
  public void unregister(String part) {
    checks.remove(part);
  }

  /** Every current problem as {@code part: problem}, in part order; empty when healthy. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    checks.forEach((part, check) -> problem(part, check).ifPresent(problems::add));
    return problems;
  }

  private static Optional<String> problem(String part, Supplier<Optional<String>> check) {
    try {
      return check.get().map(p -> part + ": " + p);
    } catch (RuntimeException e) {
      return Optional.of(part + ": health check failed: " + e);
    }
  }

  /** The {@code /healthz} body: {@code ok}, or one problem per line. */
  public String text() {
    List<String> problems = problems();
    return problems.isEmpty() ? "ok\n" : String.join("\n", problems) + "\n";
  }
}
