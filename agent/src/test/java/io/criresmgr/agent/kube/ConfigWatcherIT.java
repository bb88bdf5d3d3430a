package io.criresmgr.agent.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.criresmgr.agent.config.ChosenConfig;
import io.criresmgr.agent.config.ConfigChooser;
import io.criresmgr.agent.config.ConfigMapNames;
import io.criresmgr.agent.config.ExecutorScheduler;
import io.criresmgr.agent.config.RateLimitedSink;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The agent's watches against a fake API server over real HTTP, through to the sink. */
class ConfigWatcherIT {
  private static final String LABEL = "cri-resource-manager.intel.com/group";
  private static final ConfigMapNames NAMES =
      new ConfigMapNames("kube-system", "cri-resmgr-config", LABEL, "n1");
  private static final Map<String, String> A = Map.of("policy", "Active: balloons\n");
  private static final Map<String, String> B = Map.of("policy", "Active: topology-aware\n");
  private static final Map<String, String> C = Map.of("logger", "Debug: resource-manager\n");
  private static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200));

  private final FakeApiServer api = new FakeApiServer("kube-system");
  private final BlockingQueue<ChosenConfig> received = new LinkedBlockingQueue<>();
  private final ExecutorScheduler scheduler = new ExecutorScheduler("test-updates");
  private @Nullable ConfigWatcher watcher;

  @BeforeEach
  void start() throws IOException {
    api.putNode("n1", Map.of());
    api.putNode("n2", Map.of(LABEL, "g1"));
    api.putConfigMap("cri-resmgr-config.default", A);
    api.putConfigMap("kube-proxy", Map.of("config", "x"));
    api.start();
    ConfigWatcher started = new ConfigWatcher(ApiClients.forUrl(api.url()), NAMES, chooser(), FAST);
    started.start();
    watcher = started;
  }

  @AfterEach
  void stop() {
    if (watcher != null) {
      watcher.close();
    }
    scheduler.close();
    api.close();
  }

  @Test
  void configMapChangesReachTheSink() throws InterruptedException {
    await(ChosenConfig.of("cri-resmgr-config.default", A));
    api.putConfigMap("cri-resmgr-config.default", B);
    await(ChosenConfig.of("cri-resmgr-config.default", B));
    api.putConfigMap("cri-resmgr-config.node.n1", C);
    await(ChosenConfig.of("cri-resmgr-config.node.n1", C));
    api.deleteConfigMap("cri-resmgr-config.node.n1");
    await(ChosenConfig.of("cri-resmgr-config.default", B));
  }

  @Test
  void aGroupLabelChangeRetargetsTheGroup() throws InterruptedException {
    await(ChosenConfig.of("cri-resmgr-config.default", A));
    api.putConfigMap("cri-resmgr-config.group.g1", B);
    api.putNode("n1", Map.of(LABEL, "g1"));
    await(ChosenConfig.of("cri-resmgr-config.group.g1", B));
    api.putNode("n1", Map.of(LABEL, "g2"));
    await(ChosenConfig.empty("none: node in group g2 but no ConfigMap cri-resmgr-config.group.g2"));
    api.putConfigMap("cri-resmgr-config.group.g2", C);
    await(ChosenConfig.of("cri-resmgr-config.group.g2", C));
  }

  @Test
  void afterTheApiServerWasGoneTheAgentReconnectsAndCatchesUp()
      throws InterruptedException, IOException {
    await(ChosenConfig.of("cri-resmgr-config.default", A));
    api.stop();
    api.putConfigMap("cri-resmgr-config.group.g1", B);
    api.putNode("n1", Map.of(LABEL, "g1"));
    Thread.sleep(500); // several failed attempts, backoff at its maximum
    api.start();
    await(ChosenConfig.of("cri-resmgr-config.group.g1", B));
    api.putConfigMap("cri-resmgr-config.group.g1", C);
    await(ChosenConfig.of("cri-resmgr-config.group.g1", C));
  }

  @Test
  void anExpiredWatchIsFollowedByAFreshList() throws InterruptedException {
    await(ChosenConfig.of("cri-resmgr-config.default", A));
    api.expireWatches();
    api.putConfigMap("cri-resmgr-config.default", B);
    await(ChosenConfig.of("cri-resmgr-config.default", B));
  }

  @Test
  void aWatchErrorOtherThanExpiryIsRetried() throws InterruptedException {
    await(ChosenConfig.of("cri-resmgr-config.default", A));
    api.failWatches(500, "etcd is sulking");
    api.putConfigMap("cri-resmgr-config.default", C);
    await(ChosenConfig.of("cri-resmgr-config.default", C));
  }

  private ConfigChooser chooser() {
    return new ConfigChooser(
        NAMES, new RateLimitedSink(received::add, scheduler, Duration.ofMillis(100)));
  }

  /** Waits until the sink gets {@code expected}; configurations before it are skipped. */
  private void await(ChosenConfig expected) throws InterruptedException {
    List<ChosenConfig> seen = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      ChosenConfig got = received.poll(100, TimeUnit.MILLISECONDS);
      if (expected.equals(got)) {
        return;
      }
      if (got != null) {
        seen.add(got);
      }
    }
    fail("no " + expected + " within 10 s; got " + seen);
  }

  @Test
  void theFirstConfigIsDeliveredOnce() throws InterruptedException {
    await(ChosenConfig.of("cri-resmgr-config.default", A));
    api.putConfigMap("kube-proxy", Map.of("config", "y"));
    assertEquals(null, received.poll(500, TimeUnit.MILLISECONDS));
  }
}
