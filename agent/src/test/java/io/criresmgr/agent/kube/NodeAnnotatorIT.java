package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.agent.push.ConfigStatus;
import io.criresmgr.agent.status.ConfigAnnotations;
import io.criresmgr.agent.status.NodeAnnotator;
import io.kubernetes.client.openapi.models.V1Node;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The configuration status as Node annotations, against the fake API server over real HTTP. */
class NodeAnnotatorIT {
  private static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200));

  private final FakeApiServer api = new FakeApiServer("kube-system");
  private @Nullable NodeAnnotator started;

  @BeforeEach
  void start() throws Exception {
    api.putNode("n1", Map.of());
    api.start();
    started = new NodeAnnotator(new NodeApi(ApiClients.forUrl(api.url()), "n1"), FAST);
  }

  @AfterEach
  void stop() {
    if (started != null) {
      started.close();
    }
    api.close();
  }

  private Map<String, String> annotations() {
    V1Node node = Objects.requireNonNull(api.node("n1"));
    Map<String, String> annotations = Objects.requireNonNull(node.getMetadata()).getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  @Test
  void eachVerdictIsPatchedOnceAndAnAcceptanceRemovesTheError() throws Exception {
    NodeAnnotator annotator = Objects.requireNonNull(started);
    annotator.accept(ConfigStatus.PENDING);
    annotator.accept(ConfigStatus.accepted("ConfigMap cm.default"));
    await(() -> annotations().equals(Map.of(ConfigAnnotations.SOURCE, "cm.default")));

    annotator.accept(ConfigStatus.rejected("ConfigMap cm.node.n1", "policy: bad"));
    Map<String, String> rejected =
        Map.of(ConfigAnnotations.SOURCE, "cm.node.n1", ConfigAnnotations.ERROR, "policy: bad");
    await(() -> annotations().equals(rejected));

    annotator.accept(ConfigStatus.rejected("ConfigMap cm.node.n1", "policy: bad"));
    annotator.accept(ConfigStatus.accepted("No ConfigMap applies"));
    await(() -> annotations().equals(Map.of(ConfigAnnotations.SOURCE, "fallback")));
    assertEquals(3, api.nodePatchTypes().size(), "one patch per change: " + api.nodePatchTypes());
    assertEquals("application/merge-patch+json", api.nodePatchTypes().get(0));
  }

  @Test
  void aFailedPatchIsRetriedWithTheLatestAnnotations() throws Exception {
    NodeAnnotator annotator = Objects.requireNonNull(started);
    api.failNodeRequests(500, "etcd is away");
    annotator.accept(ConfigStatus.rejected("ConfigMap cm.default", "first"));
    annotator.accept(ConfigStatus.rejected("ConfigMap cm.default", "second"));
    await(() -> api.nodePatchTypes().size() >= 3);
    assertEquals(Map.of(), annotations());
    api.healNodeRequests();
    await(
        () ->
            annotations()
                .equals(
                    Map.of(
                        ConfigAnnotations.SOURCE,
                        "cm.default",
                        ConfigAnnotations.ERROR,
                        "second")));
  }
}
