package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import io.criresmgr.policy.builtin.BuiltInPolicies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicTest;

/**
 * One dynamic test per scenario file below a resource directory {@code scenarios/<policy>}, named
 * by its path below that directory, with a list of known failures.
 *
 * <p>Scenarios listed in the directory's {@code KNOWN-FAILURES} (one {@code path: reason} per line,
 * {@code #} starts a comment) are still run; a failure is reported as skipped with the failure
 * text, and a pass fails the test so that the list is kept current.
 */
final class KnownFailureSuite {
  private KnownFailureSuite() {}

  /**
   * The tests of resource directory {@code dir}; each fails if {@code policy} is not registered.
   */
  static Stream<DynamicTest> tests(String dir, String policy) {
    List<Path> files = ScenarioFiles.files(dir);
    Path base = root(files.get(0), dir);
    Map<String, String> known = knownFailures(base.resolve("KNOWN-FAILURES"));
    return files.stream()
        .map(
            f -> {
              String name = base.relativize(f).toString();
              return DynamicTest.dynamicTest(name, () -> run(f, policy, known.get(name)));
            });
  }

  private static void run(Path file, String policy, @Nullable String knownFailure)
      throws InterruptedException {
    if (!BuiltInPolicies.registry().names().contains(policy)) {
      fail("policy " + policy + " is not registered");
    }
    ScenarioResult result = new ScenarioRunner().run(Scenario.read(file));
    String failure = result.failure().orElse("");
    if (knownFailure == null && !result.passed()) {
      fail(failure + "\nlast log lines:\n  " + String.join("\n  ", result.logTail()));
    }
    if (knownFailure != null && result.passed()) {
      fail("listed in KNOWN-FAILURES (" + knownFailure + ") but passes: remove it from the list");
    }
    if (knownFailure != null) {
      abort("known failure (" + knownFailure + "): " + failure);
    }
  }

  private static Path root(Path file, String dir) {
    Path p = file;
    while (p != null && !p.endsWith(dir)) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException(file + " is not below " + dir);
    }
    return p;
  }

  /** {@code path: reason} lines of {@code list}; none if it does not exist. */
  private static Map<String, String> knownFailures(Path list) {
    Map<String, String> known = new LinkedHashMap<>();
    if (!Files.exists(list)) {
      return known;
    }
    try {
      for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
        String text = line.replaceAll("#.*", "").trim();
        int colon = text.indexOf(':');
        if (colon > 0) {
          known.put(text.substring(0, colon).trim(), text.substring(colon + 1).trim());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return known;
  }
}
