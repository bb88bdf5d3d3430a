package io.criresmgr.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.criresmgr.proxy.cli.InitialConfig;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.configserver.AgentConfigText;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reload or an agent configuration is checked as completely as a start (the policy against the
 * host's CPUs) before anything is stored, and every option it changes is applied: reserved CPUs
 * move, a new {@code policy.Active} places the running containers at once, or the whole
 * configuration is refused. The daemon runs in front of the simulated runtime on a fake laptop
 * (CPUs 0-7), 1 CPU reserved.
 */
class ReloadValidationIT {
  private static final String METRICS = "HTTPEndpoint: 127.0.0.1:0\n";

  @TempDir Path dir;

  private static Map<String, String> policy(String yaml) {
    return Map.of("policy", yaml, "instrumentation", METRICS);
  }

  /**
   * Sends {@code sections} to the daemon's config socket, as the agent does; the daemon's error.
   */
  private static String setConfig(InProcessDaemon daemon, Map<String, String> sections) {
    EventLoopGroup loops = EventLoops.epoll("test-config", 1);
    ManagedChannel channel = UnixGrpc.channel(daemon.configSocket(), loops).build();
    try {
      return ConfigGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .setConfig(SetConfigRequest.newBuilder().putAllConfig(sections).build())
          .getError();
    } finally {
      channel.shutdownNow();
      EventLoops.shutdown(loops);
    }
  }

  private static Config parse(Map<String, String> sections) {
    return ConfigLoader.builtIn().parseSections("test", sections);
  }

  /** Guaranteed: whole CPUs, request = limit. */
  private static LinuxContainerResources cpus(int n) {
    return LinuxContainerResources.newBuilder()
        .setCpuShares(1024L * n)
        .setCpuPeriod(100_000)
        .setCpuQuota(100_000L * n)
        .setMemoryLimitInBytes(64L << 20)
        .build();
  }

  private static String guaranteed(KubeletClient kubelet, String pod, int n) {
    return kubelet.run(pod, Map.of(), "/kubepods/pod" + pod, "c", InProcessDaemon.IMAGE, cpus(n));
  }

  private static void awaitEquals(String expected, Supplier<String> actual) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    String last = actual.get();
    while (!expected.equals(last) && Instant.now().isBefore(deadline)) {
      Thread.onSpinWait();
      last = actual.get();
    }
    assertEquals(expected, last);
  }

  @Test
  void aReservationThatWouldNotStartIsRefusedAndNotStored() throws Exception {
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "topology-aware")) {
      String error =
          setConfig(
              daemon, policy("Active: topology-aware\nReservedResources:\n  CPU: 999999999\n"));
      assertTrue(error.contains("policy.ReservedResources.CPU"), error);
      assertTrue(error.contains("CPUs do not fit"), error);
      assertEquals(Map.of("CPU", "1"), daemon.store().current().policy().reservedResources());
      assertEquals(Optional.empty(), AgentConfigText.read(daemon.relayDir()));

      ConfigException reload =
          assertThrows(
              ConfigException.class,
              () ->
                  daemon
                      .store()
                      .update(
                          parse(
                              policy(
                                  """
                                  Active: topology-aware
                                  ReservedResources:
                                    CPU: cpuset:8-9
                                  """))));
      assertTrue(reload.getMessage().contains("policy.ReservedResources.CPU"), reload.getMessage());
      assertEquals(Map.of("CPU", "1"), daemon.store().current().policy().reservedResources());
    }
  }

  @Test
  void newReservedCpusTakeEffectAtOnce() throws Exception {
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "topology-aware");
        KubeletClient kubelet = new KubeletClient(daemon.relaySocket(), daemon.runtimeSocket())) {
      String shared = kubelet.runContainer("web", "c", InProcessDaemon.IMAGE);
      String before = kubelet.cpuset(shared);
      assertTrue(before.length() > 1, before);

      daemon
          .store()
          .update(parse(policy("Active: topology-aware\nReservedResources:\n  CPU: cpuset:6-7\n")));
      awaitEquals("0-5", () -> kubelet.cpuset(shared));
    }
  }

  @Test
  void aReservationThatARunningContainerNoLongerFitsBesideIsRefused() throws Exception {
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "topology-aware");
        KubeletClient kubelet = new KubeletClient(daemon.relaySocket(), daemon.runtimeSocket())) {
      String big = guaranteed(kubelet, "big", 6);
      String cpus = kubelet.cpuset(big);
      assertEquals(6, CpuSet.parse(cpus).size(), cpus);

      String error =
          setConfig(
              daemon, policy("Active: topology-aware\nReservedResources:\n  CPU: cpuset:0-3\n"));
      assertTrue(error.contains("container big:c would not fit"), error);
      assertEquals(Map.of("CPU", "1"), daemon.store().current().policy().reservedResources());
      assertEquals(cpus, kubelet.cpuset(big));
      assertEquals(Optional.empty(), AgentConfigText.read(daemon.relayDir()));
    }
  }

  @Test
  void anAgentSwitchPlacesTheRunningContainersAtOnce() throws Exception {
    Map<String, String> switched = policy("Active: topology-aware\nReservedResources: {CPU: 1}\n");
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "none");
        KubeletClient kubelet = new KubeletClient(daemon.relaySocket(), daemon.runtimeSocket())) {
      String exclusive = guaranteed(kubelet, "db", 2);
      String shared = kubelet.runContainer("web", "c", InProcessDaemon.IMAGE);
      assertEquals("", kubelet.cpuset(exclusive), "policy none pins nothing");

      assertEquals("", setConfig(daemon, switched));
      assertEquals("topology-aware", daemon.store().current().policy().active());
      // The new placements reach the runtime as updates after the reply: wait for them. The
      // exclusive container gets 2 CPUs, the shared one the pool beside them.
      awaitEquals(
          "2 CPUs, shared pool beside them",
          () -> {
            CpuSet granted = CpuSet.parse(kubelet.cpuset(exclusive));
            CpuSet pool = CpuSet.parse(kubelet.cpuset(shared));
            return granted.size() == 2 && !pool.isEmpty() && !pool.intersects(granted)
                ? "2 CPUs, shared pool beside them"
                : granted + " and " + pool;
          });
    }
    assertEquals(
        Optional.of(AgentConfigText.encode(switched)), AgentConfigText.read(dir.resolve("state")));
  }

  @Test
  void aSwitchThatCannotPlaceEveryContainerIsRefusedAsAWhole() throws Exception {
    try (InProcessDaemon daemon = InProcessDaemon.start(dir, "none");
        KubeletClient kubelet = new KubeletClient(daemon.relaySocket(), daemon.runtimeSocket())) {
      String big = guaranteed(kubelet, "big", 6);
      String second = guaranteed(kubelet, "second", 2);

      String error =
          setConfig(daemon, policy("Active: topology-aware\nReservedResources: {CPU: 1}\n"));
      assertTrue(error.contains("switching from none to topology-aware refused"), error);
      assertTrue(error.contains("uid-second:c"), error);
      assertEquals("none", daemon.store().current().policy().active());
      assertEquals("", kubelet.cpuset(big));
      assertEquals("", kubelet.cpuset(second));
      assertEquals(Optional.empty(), AgentConfigText.read(daemon.relayDir()));
      // The old policy still decides: a new container is placed by none.
      assertEquals("", kubelet.cpuset(guaranteed(kubelet, "third", 1)));
    }
  }

  @Test
  void aStoredConfigurationThatWouldNotStartIsSkipped() throws Exception {
    // As an older daemon stored it: accepted without the check against the host's CPUs.
    NodeCache cache = new NodeCache();
    cache.setAgentConfig(
        AgentConfigText.encode(
            policy("Active: topology-aware\nReservedResources: {CPU: 999999999}\n")));
    new CacheFile(dir.resolve("state")).save(cache.snapshot());
    InProcessDaemon.start(dir, "none").close(); // writes the laptop's sysfs

    Config chosen = InitialConfig.choose(InProcessDaemon.options(dir), ConfigLoader.builtIn());
    assertEquals(Config.defaults().policy(), chosen.policy());
  }
}
