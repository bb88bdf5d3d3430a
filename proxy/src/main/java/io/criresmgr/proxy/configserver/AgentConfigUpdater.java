package io.criresmgr.proxy.configserver;

import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.PolicyConfig;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a configuration pushed by the node agent: parses it with the strict loader, refuses a
 * policy switch under {@code --disable-policy-switch}, makes it active through the {@link
 * ConfigStore} (which rolls a rejected one back as a whole) and, once accepted, hands its stored
 * text to the cache. Updates are serialized.
 */
public final class AgentConfigUpdater {
  /** Names the agent's configuration in error messages. */
  public static final String SOURCE = "agent configuration";

  private static final Logger LOG = LoggerFactory.getLogger(AgentConfigUpdater.class);

  private final ConfigLoader loader;
  private final ConfigStore store;
  private final boolean disablePolicySwitch;
  private final Consumer<String> persist;
  private final AgentMetrics metrics;

  /**
   * Parses with {@code loader}, applies to {@code store}, and passes the text of every accepted
   * configuration to {@code persist} (it stores it in the cache); counts outcomes in {@code
   * metrics}.
   */
  public AgentConfigUpdater(
      ConfigLoader loader,
      ConfigStore store,
      boolean disablePolicySwitch,
      Consumer<String> persist,
      AgentMetrics metrics) {
    this.loader = Objects.requireNonNull(loader, "loader");
    this.store = Objects.requireNonNull(store, "store");
    this.disablePolicySwitch = disablePolicySwitch;
    this.persist = Objects.requireNonNull(persist, "persist");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Applies {@code sections} (section name to YAML text; none: the defaults); returns why it was
   * rejected, or empty when it is active and stored.
   */
  public synchronized Optional<String> apply(Map<String, String> sections) {
    try {
      Config config = loader.parseSections(SOURCE, sections);
      checkPolicySwitch(config);
      store.update(config);
    } catch (ConfigException e) {
      LOG.warn("rejected the configuration from the node agent: {}", e.getMessage());
      metrics.configRejected();
      return Optional.of(Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
    persist.accept(AgentConfigText.encode(sections));
    metrics.configAccepted();
    LOG.info("applied the configuration from the node agent (sections {})", sections.keySet());
    return Optional.empty();
  }

  private void checkPolicySwitch(Config config) {
    String active = store.current().policy().active();
    String next = config.policy().active();
    if (disablePolicySwitch && !next.equals(active)) {
      throw new ConfigException(SOURCE + ": " + PolicyConfig.switchDisabled(active, next));
    }
  }
}
