package io.criresmgr.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigChooserTest {
  private static final String LABEL = "cri-resource-manager.intel.com/group";
  private static final ConfigMapNames NAMES =
      new ConfigMapNames("kube-system", "cri-resmgr-config", LABEL, "n1");
  private static final Map<String, String> A = Map.of("policy", "Active: balloons\n");
  private static final Map<String, String> B = Map.of("policy", "Active: topology-aware\n");

  private final RecordingSink sink = new RecordingSink();
  private final ConfigChooser chooser = new ConfigChooser(NAMES, sink);

  @Test
  void nothingIsOfferedUntilNodeAndConfigMapsAreListed() {
    chooser.allConfigMaps(Map.of("cri-resmgr-config.default", A));
    chooser.configMapChanged("cri-resmgr-config.default", B);
    assertEquals(List.of(), sink.received);
    chooser.nodeLabels(Map.of());
    assertEquals(List.of(ChosenConfig.of("cri-resmgr-config.default", B)), sink.received);
  }

  @Test
  void aGroupLabelChangeRetargetsTheGroup() {
    chooser.allConfigMaps(Map.of("cri-resmgr-config.group.g1", A, "cri-resmgr-config.group.g2", B));
    chooser.nodeLabels(Map.of(LABEL, "g1", "other", "x"));
    chooser.nodeLabels(Map.of(LABEL, "g2"));
    chooser.nodeLabels(Map.of(LABEL, "g3"));
    assertEquals(
        List.of(
            ChosenConfig.of("cri-resmgr-config.group.g1", A),
            ChosenConfig.of("cri-resmgr-config.group.g2", B),
            ChosenConfig.empty(
                "none: node in group g3 but no ConfigMap cri-resmgr-config.group.g3")),
        sink.received);
  }

  @Test
  void anEmptyGroupLabelMeansNoGroup() {
    chooser.allConfigMaps(Map.of("cri-resmgr-config.default", A));
    chooser.nodeLabels(Map.of(LABEL, ""));
    assertEquals(ChosenConfig.of("cri-resmgr-config.default", A), chooser.current());
  }

  @Test
  void configMapsAddedModifiedAndDeletedChangeTheChoice() {
    chooser.allConfigMaps(Map.of());
    chooser.nodeLabels(Map.of());
    chooser.configMapChanged("cri-resmgr-config.default", A);
    chooser.configMapChanged("cri-resmgr-config.node.n1", A);
    chooser.configMapChanged("cri-resmgr-config.node.n1", B);
    chooser.configMapDeleted("cri-resmgr-config.node.n1");
    chooser.configMapDeleted("cri-resmgr-config.default");
    String none = "none: no ConfigMap cri-resmgr-config.node.n1 or cri-resmgr-config.default";
    assertEquals(
        List.of(
            ChosenConfig.empty(none),
            ChosenConfig.of("cri-resmgr-config.default", A),
            ChosenConfig.of("cri-resmgr-config.node.n1", A),
            ChosenConfig.of("cri-resmgr-config.node.n1", B),
            ChosenConfig.of("cri-resmgr-config.default", A),
            ChosenConfig.empty(none)),
        sink.received);
  }

  @Test
  void aRelistReplacesWhatWasKnown() {
    chooser.allConfigMaps(Map.of("cri-resmgr-config.node.n1", A, "kube-proxy", B));
    chooser.nodeLabels(Map.of());
    chooser.allConfigMaps(Map.of("cri-resmgr-config.default", B));
    assertEquals(List.of("cri-resmgr-config.default"), chooser.knownConfigMaps());
    assertEquals(ChosenConfig.of("cri-resmgr-config.default", B), chooser.current());
  }
}
