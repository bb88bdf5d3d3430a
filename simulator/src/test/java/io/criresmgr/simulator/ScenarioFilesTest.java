package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every scenario file of the tests parses, and its topology resolves. */
class ScenarioFilesTest {
  @TestFactory
  Stream<DynamicTest> everyScenarioParses() {
    return ScenarioFiles.files("scenarios").stream()
        .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
  }

  private static void check(Path file) {
    Scenario scenario = Scenario.read(file);
    assertFalse(scenario.steps().isEmpty(), "no steps");
    HostTree.spec(scenario);
  }
}
