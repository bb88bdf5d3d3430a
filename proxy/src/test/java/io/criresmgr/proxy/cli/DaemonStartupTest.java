package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class DaemonStartupTest {
  private static final DaemonOptions OPTIONS =
      DaemonOptions.builder()
          .runtimeSocket(Path.of("/rt.sock"))
          .relaySocket(Path.of("/relay.sock"))
          .relayDir(Path.of("/state"))
          .forceConfigSignal(Optional.of("HUP"))
          .cgroupMount(Path.of("/sys/fs/cgroup"))
          .pidFile(Path.of("/tmp/x.pid"))
          .build();

  @Test
  void invalidLoggerDebugIsAConfigurationError() {
    DaemonStartup startup =
        new DaemonStartup(
            ConfigLoader.builtIn(), (o, s, early) -> 0, Map.of("LOGGER_DEBUG", "x:y"));
    ConfigException e =
        assertThrows(ConfigException.class, () -> startup.start(OPTIONS, Config.defaults()));
    assertTrue(e.getMessage().startsWith("LOGGER_DEBUG: invalid value \"x:y\""), e.getMessage());
  }

  @Test
  void aMalformedKlogVariableIsAConfigurationErrorAndAnUnknownOneIsNot() {
    DaemonStartup bad =
        new DaemonStartup(ConfigLoader.builtIn(), (o, s, early) -> 0, Map.of("LOGGER_V", "abc"));
    ConfigException e =
        assertThrows(ConfigException.class, () -> bad.start(OPTIONS, Config.defaults()));
    assertEquals("LOGGER_V: invalid value \"abc\", expected an integer", e.getMessage());
    DaemonStartup unknown =
        new DaemonStartup(ConfigLoader.builtIn(), (o, s, early) -> 3, Map.of("LOGGER_FOO", "1"));
    assertEquals(3, unknown.start(OPTIONS, Config.defaults()));
  }

  @Test
  void loggerDebugAndConfigSetLevelsAndTheDaemonSeesTheStore() {
    Config config = ConfigLoader.builtIn().parse("test", "logger:\n  Debug: cache\n");
    DaemonStartup startup =
        new DaemonStartup(
            ConfigLoader.builtIn(),
            (o, store, early) -> {
              assertEquals(config, store.current());
              assertTrue(LoggerFactory.getLogger("io.criresmgr.policy.X").isDebugEnabled());
              assertTrue(LoggerFactory.getLogger("io.criresmgr.cache.X").isDebugEnabled());
              return 7;
            },
            Map.of("LOGGER_DEBUG", "policy"));
    try {
      assertEquals(7, startup.start(OPTIONS, config));
    } finally {
      new DaemonStartup(ConfigLoader.builtIn(), (o, s, early) -> 0, Map.of())
          .start(OPTIONS, Config.defaults());
    }
  }
}
