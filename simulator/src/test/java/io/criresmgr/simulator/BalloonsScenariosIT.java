package io.criresmgr.simulator;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every scenario of {@code scenarios/balloons/<topology>/<test>.yaml}: the reference's
 * balloons e2e tests ported to scenarios, and our own for larger, tiered and reconfigured nodes.
 * Known failures: {@code scenarios/balloons/KNOWN-FAILURES} (see {@link KnownFailureSuite}).
 */
class BalloonsScenariosIT {
  @TestFactory
  Stream<DynamicTest> balloonsScenarios() {
    return KnownFailureSuite.tests("scenarios/balloons", "balloons");
  }
}
