package io.criresmgr.e2e;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The e2e classes' lifecycle: a {@link ResmgrBed} started before a class's own {@code @BeforeAll}
 * (which starts the daemon if it needs one) and stopped after its tests.
 */
abstract class ResmgrBedTestBase {
  private static @Nullable ResmgrBed bed;

  @BeforeAll
  static void startBed() throws Exception {
    bed = ResmgrBed.startOrSkip();
  }

  @AfterAll
  static void stopBed() throws Exception {
    ResmgrBed started = bed;
    bed = null;
    if (started != null) {
      started.stop();
    }
  }

  /** The bed of the running class. */
  static ResmgrBed bed() {
    return ResmgrBed.require(bed);
  }
}
