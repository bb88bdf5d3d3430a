package io.criresmgr.agent.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What is known of the cluster (the node's group label, the candidate ConfigMaps), kept up to date
 * from the watches; re-chooses the configuration after every change and offers it to a sink, but
 * only once both the node and the ConfigMaps have been listed (an early choice would be wrong).
 */
public final class ConfigChooser {
  private static final Logger log = LoggerFactory.getLogger(ConfigChooser.class);

  private final ConfigMapNames names;
  private final ConfigSink sink;
  private final Map<String, Map<String, String>> maps = new HashMap<>();
  private Optional<String> group = Optional.empty();
  private boolean nodeListed;
  private boolean mapsListed;

  /** Chooses for the node of {@code names} and offers each choice to {@code sink}. */
  public ConfigChooser(ConfigMapNames names, ConfigSink sink) {
    this.names = Objects.requireNonNull(names, "names");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /** The node's labels now (empty if the Node does not exist). */
  public synchronized void nodeLabels(Map<String, String> labels) {
    Optional<String> now =
        Optional.ofNullable(labels.get(names.groupLabel())).filter(g -> !g.isEmpty());
    if (!now.equals(group)) {
      log.info("node {} group: {}", names.nodeName(), now.orElse("(none)"));
    }
    group = now;
    nodeListed = true;
    offer();
  }

  /** All ConfigMaps of the namespace now, as name to data (after a list). */
  public synchronized void allConfigMaps(Map<String, Map<String, String>> current) {
    maps.clear();
    current.forEach(this::remember);
    mapsListed = true;
    offer();
  }

  /** A ConfigMap was added or changed. */
  public synchronized void configMapChanged(String name, Map<String, String> data) {
    remember(name, data);
    offer();
  }

  /** A ConfigMap was deleted. */
  public synchronized void configMapDeleted(String name) {
    maps.remove(name);
    offer();
  }

  /** The configuration chosen from what is known now. */
  public synchronized ChosenConfig current() {
    return ConfigPrecedence.choose(names, group, maps);
  }

  private void remember(String name, Map<String, String> data) {
    if (names.isCandidate(name)) {
      maps.put(name, Map.copyOf(data));
    }
  }

  private void offer() {
    if (nodeListed && mapsListed) {
      sink.accept(current());
    }
  }

  /** Names of the ConfigMaps known now, for logs and tests. */
  public synchronized List<String> knownConfigMaps() {
    return maps.keySet().stream().sorted().toList();
  }
}
