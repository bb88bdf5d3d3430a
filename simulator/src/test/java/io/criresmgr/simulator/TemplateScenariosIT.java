package io.criresmgr.simulator;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every scenario of {@code scenarios/template} (the template policy) through the daemon. */
class TemplateScenariosIT {
  @TestFactory
  Stream<DynamicTest> templateScenarios() {
    return ScenarioFiles.tests("scenarios/template");
  }
}
