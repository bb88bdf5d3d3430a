package io.criresmgr.e2e;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Decides what a missing prerequisite (not root, no containerd) means: the e2e tests are skipped on
 * a developer machine, but fail where they are required ({@code CI=true} in the environment or
 * {@code -De2e.required=true}).
 */
final class E2eRequirement {
  private E2eRequirement() {}

  /** Whether this run must not skip the e2e tests. */
  static boolean required() {
    return "true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("e2e.required");
  }

  /** Skips (aborts) the calling test class, or fails it when the e2e tests are required. */
  static void unavailable(String reason) {
    if (required()) {
      Assertions.fail("e2e required (CI=true or e2e.required=true) but unavailable: " + reason);
    }
    Assumptions.abort("e2e skipped: " + reason);
  }
}
