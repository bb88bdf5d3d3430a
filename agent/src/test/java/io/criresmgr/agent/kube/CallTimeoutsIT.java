package io.criresmgr.agent.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Lists, watches and status patches end when the API server accepts them and never answers. */
class CallTimeoutsIT {
  private static final CallTimeouts SHORT =
      new CallTimeouts(Duration.ofMillis(200), Duration.ofMillis(300));
  private final FakeApiServer api = new FakeApiServer("kube-system");
  private ApiClient client = ApiClients.forUrl("http://127.0.0.1:1");

  @BeforeEach
  void start() throws IOException {
    api.putAdjustment("a", "{\"scope\":[{}]}");
    api.start();
    client = ApiClients.forUrl(api.url());
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void aStalledListFails() throws Exception {
    ListWatch<?> source = KubeSources.adjustments(client, "kube-system", SHORT);
    api.stallNext(api.adjustmentsPath());
    assertFailsWithin(Duration.ofSeconds(2), source::list);
    assertEquals(1, source.list().items().size(), "the next list is answered");
  }

  @Test
  void stalledConfigMapAndNodeListsFail() {
    api.stallNext("/api/v1/namespaces/kube-system/configmaps");
    assertFailsWithin(
        Duration.ofSeconds(2), () -> KubeSources.configMaps(client, "kube-system", SHORT).list());
    api.stallNext("/api/v1/nodes");
    assertFailsWithin(Duration.ofSeconds(2), () -> KubeSources.node(client, "n1", SHORT).list());
  }

  @Test
  void aStalledWatchFails() throws Exception {
    ListWatch<?> source = KubeSources.adjustments(client, "kube-system", SHORT);
    String version = source.list().resourceVersion();
    api.stallNext(api.adjustmentsPath());
    assertFailsWithin(Duration.ofSeconds(2), () -> source.watch(version).close());
  }

  @Test
  void aStalledStatusPatchFails() {
    api.stallNext(api.adjustmentsPath() + "/a/status");
    assertFailsWithin(
        Duration.ofSeconds(2),
        () ->
            AdjustmentApi.patchStatus(
                client, "kube-system", "a", "{\"status\":{\"nodes\":{}}}", SHORT));
  }

  @Test
  void theDefaultsAreTheCallTimeoutAndALittleMoreThanTheWatchTimeout() {
    assertEquals(NodeApi.CALL_TIMEOUT, CallTimeouts.DEFAULT.call());
    assertEquals(
        Duration.ofSeconds(KubeSources.WATCH_TIMEOUT_SECONDS + 30), CallTimeouts.DEFAULT.watch());
  }

  private static void assertFailsWithin(Duration limit, Executable call) {
    long start = System.nanoTime();
    ApiException e = assertThrows(ApiException.class, call);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertEquals(0, e.getCode(), "no HTTP answer: " + e);
    assertTrue(took.compareTo(limit) < 0, "took " + took);
  }
}
