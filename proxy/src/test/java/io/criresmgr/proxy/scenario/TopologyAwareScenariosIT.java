package io.criresmgr.proxy.scenario;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import io.criresmgr.policy.PolicyRegistry;
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
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every scenario of {@code scenarios/topology-aware/<topology>/<test>.yaml}: the reference's
 * topology-aware e2e tests ported to scenarios, and our own for larger topologies.
 *
 * <p>Scenarios listed in {@code scenarios/topology-aware/KNOWN-FAILURES} (one {@code path: reason}
 * per line) are still run; a failure is reported as skipped with the failure text, and a pass fails
 * the test so that the list is kept current.
 */
class TopologyAwareScenariosIT {
  private static final String DIR = "scenarios/topology-aware";
  private static final String POLICY = "topology-aware";

  @TestFactory
  Stream<DynamicTest> topologyAwareScenarios() {
    Map<String, String> known = knownFailures();
    List<Path> files = ScenarioFiles.files(DIR);
    Path base = files.get(0).getParent().getParent();
    return files.stream()
        .map(
            f -> {
              String name = base.relativize(f).toString();
              return DynamicTest.dynamicTest(name, () -> run(f, known.get(name)));
            });
  }

  private static void run(Path file, @Nullable String knownFailure) throws InterruptedException {
    if (!PolicyRegistry.builtIn().names().contains(POLICY)) {
      abort("policy " + POLICY + " is not registered yet");
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

  /** {@code path: reason} lines of KNOWN-FAILURES; {@code #} starts a comment. */
  private static Map<String, String> knownFailures() {
    Path list = ScenarioFiles.files(DIR).get(0).getParent().getParent().resolve("KNOWN-FAILURES");
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
