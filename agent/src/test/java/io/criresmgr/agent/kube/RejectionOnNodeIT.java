package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.agent.config.ConfigChooser;
import io.criresmgr.agent.config.ConfigMapNames;
import io.criresmgr.agent.config.ExecutorScheduler;
import io.criresmgr.agent.config.RateLimitedSink;
import io.criresmgr.agent.push.ConfigPusher;
import io.criresmgr.agent.status.ConfigAnnotations;
import io.criresmgr.agent.status.NodeAnnotator;
import io.criresmgr.testkit.InProcessDaemon;
import io.kubernetes.client.openapi.models.V1Node;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end without a cluster: the real daemon rejects a bad ConfigMap and the agent shows the
 * daemon's error on the Node; fixing the ConfigMap removes it.
 */
class RejectionOnNodeIT {
  private static final ConfigMapNames NAMES =
      new ConfigMapNames(
          "kube-system", "cri-resmgr-config", ConfigMapNames.DEFAULT_GROUP_LABEL, "n1");
  private static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200));
  private static final String NODE_MAP = "cri-resmgr-config.node.n1";

  @TempDir Path dir;
  private final FakeApiServer api = new FakeApiServer("kube-system");
  private final ExecutorScheduler scheduler = new ExecutorScheduler("test-updates");
  private @Nullable InProcessDaemon daemon;
  private @Nullable ConfigPusher pusher;
  private @Nullable ConfigWatcher watcher;
  private @Nullable NodeAnnotator annotator;

  /** Keeps the daemon's metrics off the default port. */
  private static Map<String, String> sections(String name, String yaml) {
    return Map.of(name, yaml, "instrumentation", "HTTPEndpoint: 127.0.0.1:0\n");
  }

  @AfterEach
  void stop() {
    if (watcher != null) {
      watcher.close();
    }
    scheduler.close();
    if (pusher != null) {
      pusher.close();
    }
    if (annotator != null) {
      annotator.close();
    }
    api.close();
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void aRejectedConfigMapShowsTheDaemonsErrorOnTheNode() throws Exception {
    InProcessDaemon d = InProcessDaemon.start(dir, "none");
    daemon = d;
    api.putNode("n1", Map.of());
    api.putConfigMap(NODE_MAP, sections("logger", "Debug: [resource-manager\n"));
    api.start();
    ConfigPusher push = ConfigPusher.open(d.configSocket(), "n1", Duration.ofMillis(100));
    pusher = push;
    NodeAnnotator annotate =
        new NodeAnnotator(new NodeApi(ApiClients.forUrl(api.url()), "n1"), FAST);
    annotator = annotate;
    push.onStatusChange(annotate);
    RateLimitedSink sink = new RateLimitedSink(push, scheduler, Duration.ofMillis(50));
    watcher =
        new ConfigWatcher(
            ApiClients.forUrl(api.url()), NAMES, new ConfigChooser(NAMES, sink), FAST);
    watcher.start();

    await(() -> annotations().containsKey(ConfigAnnotations.ERROR));
    assertTrue(
        annotations()
            .get(ConfigAnnotations.ERROR)
            .startsWith("agent configuration: section logger: "),
        annotations().toString());
    assertEquals(NODE_MAP, annotations().get(ConfigAnnotations.SOURCE));
    assertTrue(push.status().error().startsWith(annotations().get(ConfigAnnotations.ERROR)));

    api.putConfigMap(NODE_MAP, sections("logger", "Debug: cache\n"));
    await(() -> annotations().equals(Map.of(ConfigAnnotations.SOURCE, NODE_MAP)));
    await(() -> "cache".equals(d.store().current().logger().debug()));
  }

  private Map<String, String> annotations() {
    V1Node node = Objects.requireNonNull(api.node("n1"));
    Map<String, String> annotations = Objects.requireNonNull(node.getMetadata()).getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }
}
