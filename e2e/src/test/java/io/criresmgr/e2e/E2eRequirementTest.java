package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class E2eRequirementTest {
  @Test
  void skipsUnlessRequiredAndFailsWhenRequired() {
    String old = System.getProperty("e2e.required");
    try {
      System.setProperty("e2e.required", "true");
      var failed = assertThrows(AssertionFailedError.class, () -> E2eRequirement.unavailable("x"));
      assertTrue(failed.getMessage().endsWith("unavailable: x"), failed.getMessage());
      System.setProperty("e2e.required", "false");
      if (!E2eRequirement.required()) { // CI=true in the environment makes it required anyway
        var skipped =
            assertThrows(TestAbortedException.class, () -> E2eRequirement.unavailable("y"));
        assertTrue(skipped.getMessage().endsWith("e2e skipped: y"), skipped.getMessage());
      }
    } finally {
      if (old == null) {
        System.clearProperty("e2e.required");
      } else {
        System.setProperty("e2e.required", old);
      }
    }
  }
}
