package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.config.DebugSpec.Entry;
import java.util.List;
import org.junit.jupiter.api.Test;

class DebugSpecTest {
  @Test
  void stateCarriesOverToFollowingEntries() {
    DebugSpec spec = DebugSpec.parse("cache, policy,off:dump,relay,on:config");
    assertEquals(
        List.of(
            new Entry("cache", true),
            new Entry("policy", true),
            new Entry("dump", false),
            new Entry("relay", false),
            new Entry("config", true)),
        spec.entries());
    assertTrue(spec.isEnabled("cache"));
    assertFalse(spec.isEnabled("relay"));
    assertFalse(spec.isEnabled("message"));
  }

  @Test
  void allAndStarMeanEverySourceAndLaterEntriesWin() {
    DebugSpec spec = DebugSpec.parse("all,disable:cache");
    assertTrue(spec.isEnabled("policy"));
    assertFalse(spec.isEnabled("cache"));
    assertFalse(DebugSpec.parse("cache,false:*").isEnabled("cache"));
    assertTrue(DebugSpec.parse("off:*,enable:cache").isEnabled("cache"));
    assertTrue(DebugSpec.parse("TRUE:*").isEnabled("x"));
  }

  @Test
  void laterSpecOverridesEarlierAndStateDoesNotLeak() {
    DebugSpec env = DebugSpec.parse("off:cache");
    DebugSpec config = DebugSpec.parse("cache,policy");
    DebugSpec both = env.then(config);
    assertTrue(both.isEnabled("cache"));
    assertTrue(both.isEnabled("policy"));
    assertEquals("on:cache,on:policy", config.toString());
    assertEquals(both, DebugSpec.parse(both.toString()));
  }

  @Test
  void blankEntriesAreSkippedAndBadStatesRejected() {
    assertEquals(DebugSpec.none(), DebugSpec.parse(""));
    assertEquals(DebugSpec.none(), DebugSpec.parse(" , off:"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DebugSpec.parse("cache,loud:policy"));
    assertEquals(
        "bad entry \"loud:policy\": state must be one of on, off, enable, disable, true, false",
        e.getMessage());
  }
}
