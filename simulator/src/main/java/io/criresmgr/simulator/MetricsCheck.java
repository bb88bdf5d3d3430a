package io.criresmgr.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The {@code metrics} step: reads the daemon's {@code /metrics} page (Prometheus text format) and
 * checks that each expected expression is found in some line and each unwanted one in none, as the
 * reference's {@code verify-metrics-has-line} / {@code verify-metrics-has-no-line} grep it. Polls
 * until the checks hold or the step's timeout passes.
 */
final class MetricsCheck {
  private static final long POLL_MILLIS = 50;
  private static final int SHOWN = 20;

  /** Name prefixes of the policies' gauges, shown when an expected line is missing. */
  private static final List<String> POLICY_GAUGES = List.of("balloons", "topology");

  private final Supplier<Optional<String>> page;

  /** Checks pages from {@code page} (empty: the daemon serves none). */
  MetricsCheck(Supplier<Optional<String>> page) {
    this.page = Objects.requireNonNull(page, "page");
  }

  /** Polls until {@code step} holds or its timeout passes; returns the last failures. */
  Optional<String> await(Step.Metrics step) throws InterruptedException {
    long deadline = System.nanoTime() + step.timeout().toNanos();
    while (true) {
      List<String> failures = failures(step);
      if (failures.isEmpty()) {
        return Optional.empty();
      }
      if (System.nanoTime() > deadline) {
        return Optional.of(String.join("\n  ", failures));
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** What does not hold on the current page. */
  List<String> failures(Step.Metrics step) {
    Optional<String> text = page.get();
    if (text.isEmpty()) {
      return List.of("the daemon serves no /metrics (is instrumentation.PrometheusExport on?)");
    }
    List<String> lines = text.get().lines().filter(l -> !l.startsWith("#")).toList();
    List<String> failures = new ArrayList<>();
    for (Pattern p : step.has()) {
      if (lines.stream().noneMatch(l -> p.matcher(l).find())) {
        failures.add("no line of /metrics matches /" + p + "/" + candidates(lines));
      }
    }
    for (Pattern p : step.lacks()) {
      lines.stream()
          .filter(l -> p.matcher(l).find())
          .findFirst()
          .ifPresent(l -> failures.add("a line of /metrics matches /" + p + "/: " + l));
    }
    return failures;
  }

  /** The policy's gauge lines (the first few), to show what there is instead. */
  private static String candidates(List<String> lines) {
    List<String> policy =
        lines.stream()
            .filter(l -> POLICY_GAUGES.stream().anyMatch(l::startsWith))
            .limit(SHOWN)
            .toList();
    return policy.isEmpty() ? "" : "; policy gauges:\n    " + String.join("\n    ", policy);
  }
}
