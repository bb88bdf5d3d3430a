package io.criresmgr.agent.config;

import java.util.Map;
import java.util.Optional;

/**
 * cri-resmgr's choice of ConfigMap: the node's own if it exists; else, for a node in a group, the
 * group's, or an empty configuration if the group has none (the default is then not consulted);
 * else the default ConfigMap; else an empty configuration.
 */
public final class ConfigPrecedence {
  private ConfigPrecedence() {}

  /**
   * Chooses among {@code maps} (existing ConfigMaps: name to data) for a node in {@code group}
   * (empty: in no group).
   */
  public static ChosenConfig choose(
      ConfigMapNames names, Optional<String> group, Map<String, Map<String, String>> maps) {
    String node = names.nodeMap();
    if (maps.containsKey(node)) {
      return ChosenConfig.of(node, maps.get(node));
    }
    if (group.isPresent()) {
      String groupMap = names.groupMap(group.get());
      return maps.containsKey(groupMap)
          ? ChosenConfig.of(groupMap, maps.get(groupMap))
          : ChosenConfig.empty(
              "none: node in group " + group.get() + " but no ConfigMap " + groupMap);
    }
    String defaultMap = names.defaultMap();
    return maps.containsKey(defaultMap)
        ? ChosenConfig.of(defaultMap, maps.get(defaultMap))
        : ChosenConfig.empty("none: no ConfigMap " + node + " or " + defaultMap);
  }
}
