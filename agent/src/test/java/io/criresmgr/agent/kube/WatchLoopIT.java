package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The loop backs off while watches fail, even if every list works. */
class WatchLoopIT {
  private static final String PATH = "/api/v1/namespaces/kube-system/configmaps";
  private static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(400));
  private static final Backoff SLOWER = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(2));
  private final FakeApiServer api = new FakeApiServer("kube-system");
  private final List<String> changed = new CopyOnWriteArrayList<>();
  private WatchLoop<V1ConfigMap> loop = newLoop("http://127.0.0.1:1", FAST);

  @BeforeEach
  void start() throws IOException {
    api.putConfigMap("a", Map.of());
    api.start();
    loop = newLoop(api.url(), FAST);
  }

  @AfterEach
  void stop() {
    loop.close();
    api.close();
  }

  private WatchLoop<V1ConfigMap> newLoop(String url, Backoff backoff) {
    return new WatchLoop<>(
        "configmaps",
        KubeSources.configMaps(ApiClients.forUrl(url), "kube-system"),
        new ObjectHandler<>() {
          @Override
          public void replaceAll(List<V1ConfigMap> objects) {
            objects.forEach(this::changed);
          }

          @Override
          public void changed(V1ConfigMap object) {
            changed.add(object.getMetadata().getName());
          }

          @Override
          public void deleted(V1ConfigMap object) {}
        },
        backoff);
  }

  @Test
  void failingWatchesBackOffThoughListsWork() throws Exception {
    api.refuseWatches(403);
    loop.start();
    await(() -> api.lists(PATH) >= 1);
    Thread.sleep(1_000);
    // Backing off: 50, 100, 200, 400, 400 ms... about 5 lists a second, not 20.
    int lists = api.lists(PATH);
    assertTrue(lists <= 7, lists + " lists in about a second");
    api.refuseWatches(0);
    api.putConfigMap("b", Map.of());
    await(() -> changed.contains("b"));
  }

  @Test
  void aWatchThatDeliversEndsTheOutageAndItsBackoff() throws Exception {
    loop.close();
    loop = newLoop(api.url(), SLOWER);
    api.refuseWatches(403);
    loop.start();
    Thread.sleep(800); // 50 + 100 + 200 + 400 ms: the next delay would be 800 ms
    api.refuseWatches(0);
    await(() -> api.watchers() == 1);
    api.putConfigMap("b", Map.of());
    await(() -> changed.contains("b"));
    api.refuseWatches(403);
    int before = api.lists(PATH);
    api.expireWatches();
    Thread.sleep(600);
    // Backing off from the start again: 50, 50, 100, 200 ms.
    int lists = api.lists(PATH) - before;
    assertTrue(lists >= 3, lists + " lists in 600 ms");
  }
}
