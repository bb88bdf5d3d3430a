package io.criresmgr.simulator;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every scenario of {@code scenarios/topology-aware/<topology>/<test>.yaml}: the reference's
 * topology-aware e2e tests ported to scenarios, and our own for larger topologies. Known failures:
 * {@code scenarios/topology-aware/KNOWN-FAILURES} (see {@link KnownFailureSuite}).
 */
class TopologyAwareScenariosIT {
  @TestFactory
  Stream<DynamicTest> topologyAwareScenarios() {
    return KnownFailureSuite.tests("scenarios/topology-aware", "topology-aware");
  }
}
