package io.criresmgr.proxy.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

/**
 * The daemon's health, served at {@code /healthz} (every problem) and {@code /livez} (only the
 * problems a restart cures): each part that works in the background (the relay socket, the cache
 * saver, the pipeline, the NRI connection) registers a check that names its problem, if any. Checks
 * are asked when health is read, so nothing can report "healthy" from a thread that died.
 * Thread-safe.
 */
public final class Health {
  /** What a problem calls for: why {@code /livez} and {@code /healthz} differ (docs/nri.md). */
  public enum Remedy {
    /**
     * Something outside the daemon or a retry it makes itself (a runtime not there yet, a disk that
     * is full): restarting would not help, so only {@code /healthz} reports it (readiness).
     */
    WAIT,
    /**
     * The daemon itself is stuck (a pipeline step that does not end): a restart cures it, so {@code
     * /livez} reports it too (liveness).
     */
    RESTART
  }

  private record Check(String part, Remedy remedy, Supplier<Optional<String>> problem) {}

  private final Map<String, Check> checks = new ConcurrentSkipListMap<>();

  /** Adds (or replaces) the {@link Remedy#WAIT} check of {@code part}. */
  public void register(String part, Supplier<Optional<String>> check) {
    register(part, Remedy.WAIT, check);
  }

  /**
   * Adds (or replaces) the check of {@code part} whose problems call for {@code remedy}; it returns
   * the problem, or empty when well. A part may have one check per remedy.
   */
  public void register(String part, Remedy remedy, Supplier<Optional<String>> check) {
    Objects.requireNonNull(part, "part");
    Objects.requireNonNull(remedy, "remedy");
    checks.put(
        part + '\0' + remedy.name(),
        new Check(part, remedy, Objects.requireNonNull(check, "check")));
  }

  /** Removes the checks of {@code part}. */
  public void unregister(String part) {
    for (Remedy r : Remedy.values()) {
      checks.remove(part + '\0' + r.name());
    }
  }

  /** Every current problem as {@code part: problem}, in part order; empty when healthy. */
  public List<String> problems() {
    return problems(Remedy.WAIT);
  }

  /**
   * The current problems calling for {@code remedy} or a stronger one, in part order: {@link
   * Remedy#WAIT} gives all of them ({@code /healthz}), {@link Remedy#RESTART} only those a restart
   * cures ({@code /livez}).
   */
  public List<String> problems(Remedy remedy) {
    List<String> problems = new ArrayList<>();
    for (Check c : checks.values()) {
      if (c.remedy().compareTo(remedy) >= 0) {
        problem(c).ifPresent(problems::add);
      }
    }
    return problems;
  }

  private static Optional<String> problem(Check c) {
    try {
      return c.problem().get().map(p -> c.part() + ": " + p);
    } catch (RuntimeException e) {
      return Optional.of(c.part() + ": health check failed: " + e);
    }
  }

  /** The {@code /healthz} body: {@code ok}, or one problem per line. */
  public String text() {
    return text(problems());
  }

  /**
   * The body of {@code /healthz} ({@link Remedy#WAIT}) or {@code /livez} ({@link Remedy#RESTART}):
   * {@code ok}, or one problem per line.
   */
  public String text(Remedy remedy) {
    return text(problems(remedy));
  }

  private static String text(List<String> problems) {
    return problems.isEmpty() ? "ok\n" : String.join("\n", problems) + "\n";
  }
}
