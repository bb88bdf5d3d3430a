package io.criresmgr.images;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Decides what a missing prerequisite (not root, no containerd, images not built) means: the test
 * is skipped on a developer machine but fails where it is required ({@code CI=true} in the
 * environment or {@code -Dimages.required=true}), as the e2e tests do.
 */
final class ImagesRequirement {
  private ImagesRequirement() {}

  /** Whether this run must not skip the image tests. */
  static boolean required() {
    return "true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("images.required");
  }

  /** Skips (aborts) the calling test, or fails it when the image tests are required. */
  static void unavailable(String reason) {
    if (required()) {
      Assertions.fail("image tests required (CI=true or images.required=true) but " + reason);
    }
    Assumptions.abort("image tests skipped: " + reason);
  }
}
