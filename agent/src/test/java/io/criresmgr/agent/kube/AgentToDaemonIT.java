package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.agent.config.ConfigChooser;
import io.criresmgr.agent.config.ConfigMapNames;
import io.criresmgr.agent.config.ExecutorScheduler;
import io.criresmgr.agent.config.RateLimitedSink;
import io.criresmgr.agent.push.ConfigPusher;
import io.criresmgr.agent.push.ConfigStatus;
import io.criresmgr.agent.push.ConfigStatus.Verdict;
import io.criresmgr.proxy.configserver.AgentConfigText;
import io.criresmgr.testkit.InProcessDaemon;
import io.criresmgr.testkit.KubeletClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
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

  /**
   * Starts the daemon with {@code policy}, the fake API server with node n1 and the default
   * ConfigMap {@code defaultMap}, and the agent's watches and push.
   */
  private InProcessDaemon start(String policy, Map<String, String> defaultMap) throws Exception {
    InProcessDaemon started = InProcessDaemon.start(dir, policy);
    daemon = started;
    api.putNode("n1", Map.of());
    api.putConfigMap("cri-resmgr-config.default", defaultMap);
    api.start();
    pusher = ConfigPusher.open(started.configSocket(), "n1", Duration.ofMillis(100));
    RateLimitedSink sink = new RateLimitedSink(pusher, scheduler, Duration.ofMillis(50));
    watcher =
        new ConfigWatcher(
            ApiClients.forUrl(api.url()), NAMES, new ConfigChooser(NAMES, sink), FAST);
    watcher.start();
    return started;
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
    InProcessDaemon d = start("none", sections(Map.of("logger", "Debug: cache\n")));
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

  @Test
  void aBalloonsOptionChangeMovesTheRunningContainer() throws Exception {
    InProcessDaemon d = start("balloons", balloons(2));
    await(() -> pusher().status().verdict() == Verdict.ACCEPTED);
    try (KubeletClient kubelet = new KubeletClient(d.relaySocket(), d.runtimeSocket())) {
      String id = kubelet.runContainer("pod0", "c0", InProcessDaemon.IMAGE);
      await(() -> CpuSets.count(kubelet.cpuset(id)) == 2);
      String before = kubelet.cpuset(id);

      api.putConfigMap("cri-resmgr-config.default", balloons(4));
      await(() -> CpuSets.count(kubelet.cpuset(id)) == 4);
      assertTrue(
          CpuSets.of(kubelet.cpuset(id)).containsAll(CpuSets.of(before)),
          before + " grew in place into " + kubelet.cpuset(id));
      assertEquals(Verdict.ACCEPTED, pusher().status().verdict());
    }
  }

  /** Balloons with one type for namespace {@code default} of at least {@code minCpus} CPUs. */
  private static Map<String, String> balloons(int minCpus) {
    return sections(
        Map.of(
            "policy",
            "Active: balloons\n"
                + "ReservedResources:\n"
                + "  CPU: 1\n"
                + "balloons:\n"
                + "  BalloonTypes:\n"
                + "    - Name: app\n"
                + "      Namespaces: [default]\n"
                + "      MinCPUs: "
                + minCpus
                + "\n"));
  }

  private ConfigPusher pusher() {
    if (pusher == null) {
      throw new IllegalStateException("no pusher");
    }
    return pusher;
  }
}
