package io.criresmgr.agent.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.agent.push.ConfigStatus.Verdict;
import org.junit.jupiter.api.Test;

class ConfigStatusTest {
  @Test
  void onlyARejectionHasAnError() {
    assertEquals("bad", ConfigStatus.rejected("ConfigMap x", "bad").error());
    assertEquals("", ConfigStatus.accepted("ConfigMap x").error());
    assertEquals(Verdict.PENDING, ConfigStatus.PENDING.verdict());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ConfigStatus.rejected("x", ""));
    assertEquals("a rejection, and only a rejection, has an error", e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> new ConfigStatus(Verdict.ACCEPTED, "x", "oops"));
  }
}
