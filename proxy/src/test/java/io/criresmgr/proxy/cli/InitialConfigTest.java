package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.configserver.AgentConfigText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The initial configuration's precedence through the command line: {@code --force-config}, the
 * agent configuration stored in the cache, {@code --fallback-config}, the defaults.
 */
class InitialConfigTest {
  @TempDir Path dir;

  private void storeAgentConfig(String text) {
    NodeCache cache = new NodeCache();
    cache.setAgentConfig(text);
    new CacheFile(dir.resolve("state")).save(cache.snapshot());
  }

  private Path file(String name, String yaml) throws Exception {
    return Files.writeString(dir.resolve(name), yaml);
  }

  private String debugOf(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "--relay-dir";
    all[1] = dir.resolve("state").toString();
    System.arraycopy(args, 0, all, 2, args.length);
    CliRun run = CliRun.of(all);
    assertEquals(0, run.status, run.err);
    return Objects.requireNonNull(run.store).current().logger().debug();
  }

  @Test
  void theStoredAgentConfigurationComesBeforeTheFallbackFile() throws Exception {
    storeAgentConfig(AgentConfigText.encode(Map.of("logger", "Debug: cache\n")));
    Path fallback = file("fallback.yaml", "logger:\n  Debug: policy\n");
    assertEquals("cache", debugOf("--fallback-config", fallback.toString()));
    assertEquals("cache", debugOf());
  }

  @Test
  void theForcedFileComesBeforeTheStoredAgentConfiguration() throws Exception {
    storeAgentConfig(AgentConfigText.encode(Map.of("logger", "Debug: cache\n")));
    Path forced = file("forced.yaml", "logger:\n  Debug: resource-manager\n");
    assertEquals("resource-manager", debugOf("--force-config", forced.toString()));
  }

  @Test
  void aStoredConfigurationThatNoLongerParsesFallsBack() throws Exception {
    storeAgentConfig(AgentConfigText.encode(Map.of("policy", "Active: gone\n")));
    Path fallback = file("fallback.yaml", "logger:\n  Debug: policy\n");
    assertEquals("policy", debugOf("--fallback-config", fallback.toString()));
    storeAgentConfig("policy:\n  Active: none\n");
    assertEquals(Config.defaults().logger().debug(), debugOf());
  }

  @Test
  void withoutAnyConfigurationTheDefaults() {
    assertEquals(Config.defaults().logger().debug(), debugOf());
    assertTrue(Files.notExists(dir.resolve("state/cache")), "the cache file is only read");
  }
}
