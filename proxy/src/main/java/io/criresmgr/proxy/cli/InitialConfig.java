package io.criresmgr.proxy.cli;

import io.criresmgr.cache.CacheFile;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.configserver.AgentConfigText;
import io.criresmgr.proxy.core.PolicyActivation;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration the daemon starts with, in cri-resmgr's order (its {@code loadConfig};
 * docs/configuration.md, "Where the configuration comes from"): the {@code --force-config} file;
 * else the configuration last accepted from the node agent, stored in the cache; else the {@code
 * --fallback-config} file; else the defaults. A stored agent configuration that no longer parses
 * (e.g. after an upgrade) or whose policy no longer starts on this host (e.g. {@code
 * ReservedResources} larger than the CPUs now online) is skipped with a warning: what the agent
 * pushed once must never keep the daemon from starting.
 */
public final class InitialConfig {
  private static final Logger LOG = LoggerFactory.getLogger(InitialConfig.class);

  private InitialConfig() {}

  /** Chooses and parses the initial configuration; a broken forced or fallback file throws. */
  public static Config choose(DaemonOptions options, ConfigLoader loader) {
    if (options.forceConfig().isPresent()) {
      return loader.load(options.forceConfig().get());
    }
    return stored(options, loader)
        .orElseGet(() -> options.fallbackConfig().map(loader::load).orElseGet(Config::defaults));
  }

  private static Optional<Config> stored(DaemonOptions options, ConfigLoader loader) {
    Optional<String> text = AgentConfigText.read(options.relayDir());
    if (text.isEmpty()) {
      return Optional.empty();
    }
    String source =
        "the agent configuration stored in " + options.relayDir().resolve(CacheFile.NAME);
    try {
      Config config = loader.parseSections(source, AgentConfigText.decode(source, text.get()));
      PolicyActivation.activate(loader.policies(), config.policy(), options.hostRoot());
      LOG.info("starting with {}", source);
      return Optional.of(config);
    } catch (RuntimeException e) {
      // ConfigException, or anything else a policy throws while checking it against this host.
      LOG.warn(
          "ignoring the stored agent configuration, {}; starting with {}",
          e.getMessage(),
          options.fallbackConfig().map(f -> "--fallback-config " + f).orElse("the defaults"));
      return Optional.empty();
    }
  }
}
