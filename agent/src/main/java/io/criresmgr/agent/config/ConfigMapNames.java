package io.criresmgr.agent.config;

import java.util.Objects;

/**
 * Where this node's configuration lives: the namespace, the ConfigMaps' base name, the Node label
 * naming the node's group, and the node's name.
 *
 * @param namespace namespace of the ConfigMaps ({@code -config-ns})
 * @param baseName base name of the ConfigMaps ({@code -configmap-name})
 * @param groupLabel Node label whose value is the node's group ({@code -label-name})
 * @param nodeName this node's name ({@code NODE_NAME})
 */
public record ConfigMapNames(
    String namespace, String baseName, String groupLabel, String nodeName) {

  /** Default namespace, as cri-resmgr-agent's {@code -config-ns}. */
  public static final String DEFAULT_NAMESPACE = "kube-system";

  /** Default base name, as cri-resmgr-agent's {@code -configmap-name}. */
  public static final String DEFAULT_BASE_NAME = "cri-resmgr-config";

  /** Default group label, as cri-resmgr-agent's {@code -label-name}. */
  public static final String DEFAULT_GROUP_LABEL = "cri-resource-manager.intel.com/group";

  /** Rejects blank names. */
  public ConfigMapNames {
    requireNonBlank(namespace, "namespace");
    requireNonBlank(baseName, "ConfigMap base name");
    requireNonBlank(groupLabel, "group label");
    requireNonBlank(nodeName, "node name");
  }

  /** {@code <base>.node.<node>}: the node's own ConfigMap. */
  public String nodeMap() {
    return baseName + ".node." + nodeName;
  }

  /** {@code <base>.group.<group>}: the ConfigMap of the nodes in {@code group}. */
  public String groupMap(String group) {
    return baseName + ".group." + group;
  }

  /** {@code <base>.default}: the ConfigMap of nodes in no group. */
  public String defaultMap() {
    return baseName + ".default";
  }

  /** Whether a ConfigMap of this name could ever configure some node (saves memory and noise). */
  public boolean isCandidate(String configMapName) {
    return configMapName.startsWith(baseName + ".");
  }

  private static void requireNonBlank(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
  }
}
