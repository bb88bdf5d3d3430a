package io.criresmgr.sampleconfigs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.scenario.Scenario;
import io.criresmgr.proxy.scenario.ScenarioResult;
import io.criresmgr.proxy.scenario.ScenarioRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every sample scenario in {@code scenarios/} runs through the daemon and passes. */
class SampleScenariosIT {
  private static final Path DIR = Path.of(System.getProperty("basedir", "."), "scenarios");

  @TestFactory
  Stream<DynamicTest> everySampleScenarioPasses() throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(DIR)) {
      files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertTrue(files.size() >= 2, () -> "too few scenarios in " + DIR.toAbsolutePath());
    return files.stream()
        .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(f)));
  }

  /**
   * The daemon starts with {@code balloons-policy.cfg} on n4c16 and places kube-system, an
   * annotated latency-critical pod and a batch pod in the balloons the sample describes. Checks
   * that shared idle CPUs would not change: the reserved CPU stays kube-system's alone.
   */
  @Test
  void balloonsSampleRunsOnN4c16() throws IOException, InterruptedException {
    Path sample = DIR.getParent().resolve("balloons-policy.cfg");
    String steps =
        """
        topology: n4c16
        steps:
          - create: {template: besteffort, namespace: kube-system}
          - create:
              cpu: 1
              annotations: {balloon.balloons.cri-resource-manager.intel.com/pod: latency-critical}
          - create: {template: burstable, namespace: batch-a, cpureq: 500m, cpulim: 1}
          - create: {template: besteffort}
          - verify:
              pod0c0: {cpus: [0]}
              pod1c0: {cpus: {count: ">=2", excludes: [0]}}
              pod2c0: {cpus: {count: ">=1", excludes: [0]}}
              pod3c0: {cpus: {count: ">=1", excludes: [0]}}
          - expect-error:
              create:
                cpu: 5
                annotations: {balloon.balloons.cri-resource-manager.intel.com/pod: latency-critical}
              message: "no suitable balloon instance available"
        """;
    Scenario scenario =
        Scenario.parse("balloons-policy.cfg on n4c16", steps)
            .withConfig(Files.readString(sample, StandardCharsets.UTF_8));
    assertPassed(new ScenarioRunner().run(scenario));
  }

  private static void run(Path file) throws InterruptedException {
    assertPassed(new ScenarioRunner().run(Scenario.read(file)));
  }

  private static void assertPassed(ScenarioResult result) {
    assertTrue(
        result.passed(),
        () ->
            result.failure().orElse("")
                + "\nlast log lines:\n  "
                + String.join("\n  ", result.logTail()));
  }
}
