package io.criresmgr.proxy.configserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetAdjustmentRequest;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.cli.InitialConfig;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.proxy.relay.UnixFiles;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's config socket over real Unix sockets against the simulated runtime: SetConfig
 * applies, rejects and stores; a restart starts with the stored configuration; health; mode 0600;
 * none with a forced configuration; {@code --disable-policy-switch}.
 */
class ConfigServerIT {
  /** Keeps every pushed configuration off the default metrics port. */
  private static final String INSTRUMENTATION = "HTTPEndpoint: 127.0.0.1:0\n";

  @TempDir Path dir;
  private SimRuntimeServer sim;
  private Path socket;

  @BeforeEach
  void startRuntime() throws Exception {
    sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start();
    socket = dir.resolve("run/cri-resmgr-config.sock");
  }

  @AfterEach
  void stopRuntime() {
    sim.close();
  }

  private DaemonOptions options() {
    return TestDaemons.options(dir, sim.socket(), true).toBuilder()
        .configSocket(Optional.of(socket))
        .build();
  }

  private static Map<String, String> sections(Map<String, String> extra) {
    Map<String, String> all = new TreeMap<>(extra);
    all.put("instrumentation", INSTRUMENTATION);
    return all;
  }

  private static String setConfig(RawClient client, Map<String, String> sections) {
    return ConfigGrpc.newBlockingStub(client.channel())
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .setConfig(
            SetConfigRequest.newBuilder().setNodeName("node-1").putAllConfig(sections).build())
        .getError();
  }

  @Test
  void appliesStoresAndRestartsWithTheAgentConfiguration() throws Exception {
    ConfigStore store = new ConfigStore(TestDaemons.config());
    Map<String, String> good = sections(Map.of("logger", "Debug: cache\n"));
    Daemon daemon = Daemon.start(options(), store);
    try (daemon;
        RawClient client = new RawClient(socket)) {
      assertEquals(0600, UnixFiles.mode(socket) & 0777);
      assertEquals("", setConfig(client, good));
      assertEquals("cache", store.current().logger().debug());
      assertEquals(Optional.of(AgentConfigText.encode(good)), awaitStored());

      String error = setConfig(client, sections(Map.of("policy", "Active: nosuch\n")));
      assertTrue(error.startsWith("agent configuration: policy.Active: "), error);
      assertTrue(error.contains("nosuch"), error);
      assertEquals("cache", store.current().logger().debug());

      String yamlError = setConfig(client, Map.of("dump", "Config: [unclosed\n"));
      assertTrue(yamlError.startsWith("agent configuration: section dump: line "), yamlError);
      assertEquals("cache", store.current().logger().debug());
    }
    assertFalse(Files.exists(socket), "socket removed at shutdown");
    assertEquals(Optional.of(AgentConfigText.encode(good)), AgentConfigText.read(relayDir()));

    Config restarted = InitialConfig.choose(options(), ConfigLoader.builtIn());
    assertEquals("cache", restarted.logger().debug());
    ConfigStore again = new ConfigStore(restarted);
    Daemon restartedDaemon = Daemon.start(options(), again);
    try (restartedDaemon;
        RawClient client = new RawClient(socket)) {
      assertEquals("", setConfig(client, sections(Map.of("logger", "Debug: policy\n"))));
      assertEquals("policy", again.current().logger().debug());
    }
  }

  @Test
  void anEmptyConfigurationResetsToTheDefaults() throws Exception {
    ConfigStore store = new ConfigStore(TestDaemons.config());
    Daemon daemon = Daemon.start(options(), store);
    try (daemon;
        RawClient client = new RawClient(socket)) {
      assertEquals("", setConfig(client, sections(Map.of("logger", "Debug: cache\n"))));
      assertEquals("", setConfig(client, sections(Map.of())));
      assertEquals(Config.defaults().logger(), store.current().logger());
      assertEquals(Config.defaults().policy(), store.current().policy());
    }
  }

  @Test
  void servesHealthAndRefusesAdjustments() throws Exception {
    Daemon daemon = Daemon.start(options(), new ConfigStore(TestDaemons.config()));
    try (daemon;
        RawClient client = new RawClient(socket)) {
      HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(client.channel());
      for (String service : List.of("", "v1.Config")) {
        assertEquals(
            ServingStatus.SERVING,
            health.check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus());
      }
      ConfigGrpc.ConfigBlockingStub config = ConfigGrpc.newBlockingStub(client.channel());
      assertEquals(
          Map.of(),
          config
              .setAdjustment(SetAdjustmentRequest.newBuilder().setAdjustment("{}").build())
              .getErrorsMap());
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  config.setAdjustment(
                      SetAdjustmentRequest.newBuilder().setAdjustment("[1]").build()));
      assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
      assertEquals(
          "adjustments: expected a JSON object of name to spec", e.getStatus().getDescription());
    }
  }

  @Test
  void disablePolicySwitchRejectsAnotherPolicy() throws Exception {
    DaemonOptions noSwitch = options().toBuilder().disablePolicySwitch(true).build();
    ConfigStore store = new ConfigStore(TestDaemons.config());
    Daemon daemon = Daemon.start(noSwitch, store);
    try (daemon;
        RawClient client = new RawClient(socket)) {
      String error = setConfig(client, sections(Map.of("policy", "Active: topology-aware\n")));
      assertEquals(
          "agent configuration: policy.Active: switching from none to topology-aware is disabled by"
              + " --disable-policy-switch; keep policy.Active: none",
          error);
      assertEquals("none", store.current().policy().active());
      assertEquals(Optional.empty(), AgentConfigText.read(relayDir()));
      assertEquals("", setConfig(client, sections(Map.of("policy", "Active: none\n"))));
    }
  }

  @Test
  void aPolicySwitchIsAppliedAtOnceOrRefusedWhenItWouldNotStart() throws Exception {
    ConfigStore store = new ConfigStore(TestDaemons.config());
    Map<String, String> unreserved = sections(Map.of("policy", "Active: topology-aware\n"));
    Map<String, String> switched =
        sections(Map.of("policy", "Active: topology-aware\nReservedResources: {CPU: 1}\n"));
    Daemon daemon = Daemon.start(options(), store);
    try (daemon;
        RawClient client = new RawClient(socket)) {
      String error = setConfig(client, unreserved);
      assertTrue(error.contains("policy.ReservedResources.CPU: missing"), error);
      assertEquals("none", store.current().policy().active());
      assertEquals(Optional.empty(), AgentConfigText.read(relayDir()));

      assertEquals("", setConfig(client, switched));
      assertEquals("topology-aware", store.current().policy().active());
    }
    assertEquals(Optional.of(AgentConfigText.encode(switched)), AgentConfigText.read(relayDir()));
    assertEquals(
        "topology-aware",
        InitialConfig.choose(options(), ConfigLoader.builtIn()).policy().active());
  }

  @Test
  void aForcedConfigurationHasNoConfigSocket() throws Exception {
    Path forced = Files.writeString(dir.resolve("forced.yaml"), "");
    DaemonOptions withForced = options().toBuilder().forceConfig(Optional.of(forced)).build();
    Daemon daemon = Daemon.start(withForced, new ConfigStore(TestDaemons.config()));
    try (daemon) {
      assertFalse(Files.exists(socket));
    }
  }

  @Test
  void replacesAStaleSocketAndRefusesALiveOne() throws Exception {
    Files.createDirectories(socket.getParent());
    try (ServerSocketChannel live = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      live.bind(UnixDomainSocketAddress.of(socket));
      RelayException e =
          assertThrows(
              RelayException.class,
              () -> Daemon.start(options(), new ConfigStore(TestDaemons.config())));
      assertEquals(
          "a process is already serving " + socket + "; refusing to take it over, stop it first",
          e.getMessage());
    }
    assertTrue(Files.exists(socket), "the closed listener left a stale socket file");
    Daemon daemon = Daemon.start(options(), new ConfigStore(TestDaemons.config()));
    try (daemon;
        RawClient client = new RawClient(socket)) {
      assertEquals("", setConfig(client, sections(Map.of())));
    }
  }

  /** The stored agent configuration once the cache saver has written it (while running). */
  private Optional<String> awaitStored() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Optional<String> stored = AgentConfigText.read(relayDir());
    while (stored.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      stored = AgentConfigText.read(relayDir());
    }
    return stored;
  }

  private Path relayDir() {
    return dir.resolve("state");
  }
}
