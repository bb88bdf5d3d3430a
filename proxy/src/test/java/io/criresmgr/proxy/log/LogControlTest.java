package io.criresmgr.proxy.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.DebugSpec;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LogControlTest {
  private final Map<String, Boolean> levels = new TreeMap<>();
  private final LevelSink recorder = levels::put;

  @Test
  void enabledSourcesGetDebugOthersInfo() {
    LogControl control = new LogControl(recorder, DebugSpec.none());
    control.apply(DebugSpec.parse("cache,cri/relay,message"));
    assertTrue(levels.get("io.criresmgr.cache"));
    assertTrue(levels.get("io.criresmgr.proxy.relay"));
    assertTrue(levels.get("message"));
    assertFalse(levels.get("io.criresmgr.policy"));
    assertFalse(levels.get("io.criresmgr.proxy"));
    assertFalse(levels.get(LogSources.ROOT));
    assertEquals(
        LogSources.allLoggers(),
        levels.keySet().stream().collect(java.util.stream.Collectors.toSet()));
  }

  @Test
  void everySourceExceptExplicitlyDisabled() {
    LogControl control = new LogControl(recorder, DebugSpec.none());
    control.apply(DebugSpec.parse("*,off:resource-control"));
    assertTrue(levels.get(LogSources.ROOT));
    assertTrue(levels.get("io.criresmgr.proxy"));
    assertFalse(levels.get("io.criresmgr.controllers"));
  }

  @Test
  void configuredSpecIsAddedOnTopOfTheEnvironmentSeed() {
    LogControl control = new LogControl(recorder, DebugSpec.parse("policy,cache"));
    control.configChanged(withDebug("off:cache,on:config"));
    assertTrue(levels.get("io.criresmgr.policy"));
    assertFalse(levels.get("io.criresmgr.cache"));
    assertTrue(levels.get("io.criresmgr.proxy.config"));
    control.configChanged(withDebug(""));
    assertTrue(levels.get("io.criresmgr.cache"));
    assertFalse(levels.get("io.criresmgr.proxy.config"));
  }

  @Test
  void forcedDebugTogglesEverySource() {
    LogControl control = new LogControl(recorder, DebugSpec.none());
    control.apply(DebugSpec.parse("off:*"));
    assertTrue(control.toggleForcedDebug());
    assertTrue(levels.values().stream().allMatch(debug -> debug));
    assertFalse(control.toggleForcedDebug());
    assertTrue(levels.values().stream().noneMatch(debug -> debug));
  }

  @Test
  void unknownSourcesAreAccepted() {
    LogControl control = new LogControl(recorder, DebugSpec.none());
    control.apply(DebugSpec.parse("not-yet-a-source,cache"));
    assertTrue(levels.get("io.criresmgr.cache"));
  }

  @Test
  void invalidEnvironmentValueIsAConfigError() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> LogControl.forLogback("sometimes:cache"));
    assertEquals(
        "LOGGER_DEBUG: invalid value \"sometimes:cache\": bad entry \"sometimes:cache\": state"
            + " must be one of on, off, enable, disable, true, false",
        e.getMessage());
  }

  @Test
  void setsLogbackLevels() {
    LoggerContext context = new LoggerContext();
    LogControl control = new LogControl(new LogbackLevels(context), DebugSpec.none());
    control.apply(DebugSpec.parse("policy"));
    assertEquals(Level.DEBUG, context.getLogger("io.criresmgr.policy").getLevel());
    assertTrue(context.getLogger("io.criresmgr.policy.none").isDebugEnabled());
    assertEquals(Level.INFO, context.getLogger("io.criresmgr.cache").getLevel());
    assertFalse(context.getLogger("io.criresmgr.proxy.relay.Relay").isDebugEnabled());
  }

  private static Config withDebug(String spec) {
    return ConfigLoader.builtIn().parse("test", "logger:\n  Debug: \"" + spec + "\"\n");
  }
}
