package io.criresmgr.agent.kube;

import io.criresmgr.agent.config.ConfigChooser;
import io.criresmgr.agent.config.ConfigMapNames;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Watches this node's Node object and the ConfigMaps of the config namespace, and keeps a {@link
 * ConfigChooser} up to date with them. All ConfigMaps of the namespace are watched (one watch) and
 * the candidates picked by name, so a change of the node's group needs no new watch.
 */
public final class ConfigWatcher implements AutoCloseable {
  private final WatchLoop<V1Node> nodeLoop;
  private final WatchLoop<V1ConfigMap> mapLoop;

  /** Watches through {@code client} for {@code names}, feeding {@code chooser}. */
  public ConfigWatcher(
      ApiClient client, ConfigMapNames names, ConfigChooser chooser, Backoff backoff) {
    Objects.requireNonNull(chooser, "chooser");
    nodeLoop =
        new WatchLoop<>(
            "node " + names.nodeName(),
            KubeSources.node(client, names.nodeName()),
            new NodeHandler(names.nodeName(), chooser),
            backoff);
    mapLoop =
        new WatchLoop<>(
            "configmaps in " + names.namespace(),
            KubeSources.configMaps(client, names.namespace()),
            new ConfigMapHandler(chooser),
            backoff);
  }

  /** Starts both watches. */
  public void start() {
    nodeLoop.start();
    mapLoop.start();
  }

  /** Stops both watches. */
  @Override
  public void close() {
    nodeLoop.close();
    mapLoop.close();
  }

  private static Map<String, String> nonNull(@Nullable Map<String, String> map) {
    return map == null ? Map.of() : map;
  }

  private static String name(@Nullable V1ObjectMeta meta) {
    String name = meta == null ? null : meta.getName();
    return name == null ? "" : name;
  }

  private record NodeHandler(String nodeName, ConfigChooser chooser)
      implements ObjectHandler<V1Node> {
    @Override
    public void replaceAll(List<V1Node> nodes) {
      chooser.nodeLabels(
          nodes.stream()
              .filter(n -> name(n.getMetadata()).equals(nodeName))
              .findFirst()
              .map(n -> labels(n))
              .orElse(Map.of()));
    }

    @Override
    public void changed(V1Node node) {
      if (name(node.getMetadata()).equals(nodeName)) {
        chooser.nodeLabels(labels(node));
      }
    }

    @Override
    public void deleted(V1Node node) {
      if (name(node.getMetadata()).equals(nodeName)) {
        chooser.nodeLabels(Map.of());
      }
    }

    private static Map<String, String> labels(V1Node node) {
      V1ObjectMeta meta = node.getMetadata();
      return meta == null ? Map.of() : nonNull(meta.getLabels());
    }
  }

  private record ConfigMapHandler(ConfigChooser chooser) implements ObjectHandler<V1ConfigMap> {
    @Override
    public void replaceAll(List<V1ConfigMap> maps) {
      Map<String, Map<String, String>> all = new HashMap<>();
      maps.forEach(m -> all.put(name(m.getMetadata()), nonNull(m.getData())));
      chooser.allConfigMaps(all);
    }

    @Override
    public void changed(V1ConfigMap map) {
      chooser.configMapChanged(name(map.getMetadata()), nonNull(map.getData()));
    }

    @Override
    public void deleted(V1ConfigMap map) {
      chooser.configMapDeleted(name(map.getMetadata()));
    }
  }
}
