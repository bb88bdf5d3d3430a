package io.criresmgr.agent.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.criresmgr.agent.config.ConfigChooser;
import io.criresmgr.agent.config.ConfigMapNames;
import io.criresmgr.agent.config.ExecutorScheduler;
import io.criresmgr.agent.config.RateLimitedSink;
import io.criresmgr.agent.push.ConfigPusher;
import io.criresmgr.agent.push.ConfigStatus;
import io.criresmgr.agent.push.ConfigStatus.Verdict;
import io.criresmgr.proxy.configserver.AgentConfigText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end without a cluster: ConfigMaps in the fake API server, the agent's real watches, rate
 * limit and push, and the real daemon (in this JVM, in front of the simulated runtime) on its
 * config socket.
 */
class AgentToDaemonIT {
  private static final ConfigMapNames NAMES =
      new ConfigMapNames(
          "kube-system", "cri-resmgr-config", ConfigMapNames.DEFAULT_GROUP_LABEL, "n1");
  private static final Backoff FAST = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200));

  @TempDir Path dir;
  private final FakeApiServer api = new FakeApiServer("kube-system");
  private final ExecutorScheduler scheduler = new ExecutorScheduler("test-updates");
  private @Nullable InProcessDaemon daemon;
  private @Nullable ConfigPusher pusher;
  private @Nullable ConfigWatcher watcher;

  /** Every pushed configuration keeps the daemon's metrics off the default port. */
  private static Map<String, String> sections(Map<String, String> extra) {
    Map<String, String> all = new TreeMap<>(extra);
    all.put("instrumentation", "HTTPEndpoint: 127.0.0.1:0\n");
    return all;
  }

  @BeforeEach
  void start() throws Exception {
    daemon = InProcessDaemon.start(dir);
    api.putNode("n1", Map.of());
    api.putConfigMap("cri-resmgr-config.default", sections(Map.of("logger", "Debug: cache\n")));
    api.start();
    pusher = ConfigPusher.open(daemon.configSocket(), "n1", Duration.ofMillis(100));
    RateLimitedSink sink = new RateLimitedSink(pusher, scheduler, Duration.ofMillis(50));
    watcher =
        new ConfigWatcher(
            ApiClients.forUrl(api.url()), NAMES, new ConfigChooser(NAMES, sink), FAST);
    watcher.start();
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
    api.close();
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void aNewConfigMapConfiguresTheDaemonAndABadOneIsRejected() throws Exception {
    InProcessDaemon d = daemon();
    await(() -> pusher().status().verdict() == Verdict.ACCEPTED);
    assertEquals(ConfigStatus.accepted("ConfigMap cri-resmgr-config.default"), pusher().status());
    assertEquals("cache", d.store().current().logger().debug());

    Map<String, String> nodeConfig =
        sections(
            Map.of(
                "logger", "Debug: policy\n",
                "dump", "Config: full:.*\n",
                "policy", "Active: none\nReservedResources:\n  CPU: 2\n"));
    api.putConfigMap("cri-resmgr-config.node.n1", nodeConfig);
    await(() -> pusher().status().source().equals("ConfigMap cri-resmgr-config.node.n1"));
    assertEquals(Verdict.ACCEPTED, pusher().status().verdict());
    assertEquals("policy", d.store().current().logger().debug());
    assertEquals(Map.of("CPU", "2"), d.store().current().policy().reservedResources());
    Optional<String> stored = Optional.of(AgentConfigText.encode(nodeConfig));
    await(() -> AgentConfigText.read(d.relayDir()).equals(stored));

    api.putConfigMap(
        "cri-resmgr-config.node.n1", sections(Map.of("logger", "Debug: [resource-manager\n")));
    await(() -> pusher().status().verdict() == Verdict.REJECTED);
    ConfigStatus rejected = pusher().status();
    assertEquals("ConfigMap cri-resmgr-config.node.n1", rejected.source());
    assertTrue(
        rejected.error().startsWith("agent configuration: section logger: "), rejected.error());
    assertEquals("policy", d.store().current().logger().debug());
    assertEquals(stored, AgentConfigText.read(d.relayDir()));

    api.putConfigMap(
        "cri-resmgr-config.node.n1", sections(Map.of("policy", "Active: none\nNoSuchKey: 1\n")));
    await(() -> pusher().status().error().contains("NoSuchKey"));
    assertEquals("policy", d.store().current().logger().debug());
  }

  private InProcessDaemon daemon() {
    if (daemon == null) {
      throw new IllegalStateException("no daemon");
    }
    return daemon;
  }

  private ConfigPusher pusher() {
    if (pusher == null) {
      throw new IllegalStateException("no pusher");
    }
    return pusher;
  }

  /** Waits up to 10 s for {@code condition}. */
  private static void await(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        fail("condition not met within 10 s");
      }
      Thread.sleep(20);
    }
  }
}
