package io.criresmgr.sampleconfigs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.scenario.Scenario;
import io.criresmgr.proxy.scenario.ScenarioResult;
import io.criresmgr.proxy.scenario.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
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

  private static void run(Path file) throws InterruptedException {
    ScenarioResult result = new ScenarioRunner().run(Scenario.read(file));
    assertTrue(
        result.passed(),
        () ->
            result.failure().orElse("")
                + "\nlast log lines:\n  "
                + String.join("\n  ", result.logTail()));
  }
}
