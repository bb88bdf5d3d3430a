package io.criresmgr.simulator;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of running a scenario.
 *
 * @param source the scenario file
 * @param stepsRun steps that ran (including a failed one)
 * @param failure what failed, naming the step, its line, the container and expected vs actual;
 *     empty if every expectation held
 * @param logTail the daemon's last log lines when a step failed (empty otherwise)
 */
public record ScenarioResult(
    String source, int stepsRun, Optional<String> failure, List<String> logTail) {
  /** Checks for nulls and copies the list. */
  public ScenarioResult {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(failure, "failure");
    logTail = List.copyOf(logTail);
  }

  /** Whether every step passed. */
  public boolean passed() {
    return failure.isEmpty();
  }
}
