package io.criresmgr.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigPrecedenceTest {
  private static final ConfigMapNames NAMES =
      new ConfigMapNames("kube-system", "cri-resmgr-config", "group-label", "n1");
  private static final Map<String, String> NODE = Map.of("policy", "Active: balloons\n");
  private static final Map<String, String> GROUP = Map.of("policy", "Active: topology-aware\n");
  private static final Map<String, String> DEFAULT = Map.of("logger", "Debug: all\n");

  @Test
  void theNodesOwnConfigMapWinsOverGroupAndDefault() {
    ChosenConfig chosen =
        choose(
            Optional.of("g1"),
            Map.of(
                "cri-resmgr-config.node.n1", NODE,
                "cri-resmgr-config.group.g1", GROUP,
                "cri-resmgr-config.default", DEFAULT));
    assertEquals(new ChosenConfig(NODE, "ConfigMap cri-resmgr-config.node.n1"), chosen);
  }

  @Test
  void aNodeInAGroupGetsTheGroupsConfigMap() {
    ChosenConfig chosen =
        choose(
            Optional.of("g1"),
            Map.of(
                "cri-resmgr-config.node.n2", NODE,
                "cri-resmgr-config.group.g1", GROUP,
                "cri-resmgr-config.default", DEFAULT));
    assertEquals(new ChosenConfig(GROUP, "ConfigMap cri-resmgr-config.group.g1"), chosen);
  }

  @Test
  void aNodeInAGroupWithoutConfigMapGetsAnEmptyConfigNotTheDefault() {
    ChosenConfig chosen =
        choose(
            Optional.of("g2"),
            Map.of("cri-resmgr-config.group.g1", GROUP, "cri-resmgr-config.default", DEFAULT));
    assertEquals(
        ChosenConfig.empty("none: node in group g2 but no ConfigMap cri-resmgr-config.group.g2"),
        chosen);
  }

  @Test
  void aNodeInNoGroupGetsTheDefault() {
    ChosenConfig chosen =
        choose(
            Optional.empty(),
            Map.of("cri-resmgr-config.group.g1", GROUP, "cri-resmgr-config.default", DEFAULT));
    assertEquals(new ChosenConfig(DEFAULT, "ConfigMap cri-resmgr-config.default"), chosen);
  }

  @Test
  void withoutAnyConfigMapTheConfigIsEmpty() {
    ChosenConfig chosen = choose(Optional.empty(), Map.of("other", GROUP));
    assertEquals(Map.of(), chosen.data());
    assertEquals(
        "none: no ConfigMap cri-resmgr-config.node.n1 or cri-resmgr-config.default",
        chosen.source());
  }

  private static ChosenConfig choose(
      Optional<String> group, Map<String, Map<String, String>> maps) {
    return ConfigPrecedence.choose(NAMES, group, maps);
  }
}
