package io.criresmgr.proxy.daemon;

import static io.criresmgr.proxy.HttpPages.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.metrics.Instrumentation;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code --health-endpoint} (docs/nri.md, "Probes"): a listener of its own serving {@code /livez}
 * and {@code /healthz} as the configured {@code instrumentation.HTTPEndpoint} does, whether the
 * configuration has an endpoint or not, across configurations the agent pushes; a port that cannot
 * be bound fails the start.
 */
class HealthEndpointIT {
  @TempDir Path dir;

  private static final String NO_HTTP = "HTTPEndpoint: ''\n";

  private static void assertWell(int port) throws Exception {
    for (String path : List.of("/livez", "/healthz")) {
      HttpResponse<String> reply = get(port, path);
      assertEquals(200, reply.statusCode(), path + ": " + reply.body());
      assertEquals("ok\n", reply.body(), path);
    }
  }

  /** {@code path} on {@code port}, asked again until the port is bound (30 s at most). */
  private static HttpResponse<String> getOnceServing(int port, String path) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return get(port, path);
      } catch (ConnectException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        TimeUnit.MILLISECONDS.sleep(10);
      }
    }
  }

  private static String setConfig(RawClient client, String instrumentation) {
    return ConfigGrpc.newBlockingStub(client.channel())
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .setConfig(
            SetConfigRequest.newBuilder()
                .setNodeName("node-1")
                .putAllConfig(Map.of("instrumentation", instrumentation))
                .build())
        .getError();
  }

  private SimRuntimeServer startRuntime() throws Exception {
    return new SimRuntimeServer(
            dir.resolve("rt.sock"),
            new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
        .start();
  }

  @Test
  void servesTheProbesWithoutAnHttpEndpointAndAcrossPushedConfigurations() throws Exception {
    Path configSocket = dir.resolve("run/cri-resmgr-config.sock");
    try (SimRuntimeServer sim = startRuntime()) {
      DaemonOptions options =
          TestDaemons.options(dir, sim.socket(), true).toBuilder()
              .configSocket(Optional.of(configSocket))
              .healthEndpoint(Optional.of("127.0.0.1:0"))
              .build();
      ConfigStore store =
          new ConfigStore(TestDaemons.withInstrumentation(TestDaemons.config(), ""));
      Daemon daemon = Daemon.start(options, store);
      int health;
      try (daemon;
          RawClient agent = new RawClient(configSocket)) {
        assertEquals(-1, daemon.metricsPort(), "HTTPEndpoint \"\": no configured server");
        health = daemon.healthPort();
        assertTrue(health > 0, "health port " + health);
        assertWell(health);
        HttpResponse<String> metrics = get(health, "/metrics");
        assertEquals(404, metrics.statusCode());
        assertEquals("no such page /metrics; try /healthz, /livez\n", metrics.body());

        // The agent gives the daemon an endpoint: both serve, each on its own port.
        assertEquals("", setConfig(agent, "HTTPEndpoint: 127.0.0.1:0\n"));
        int configured = daemon.metricsPort();
        assertTrue(configured > 0, "metrics port " + configured);
        assertNotEquals(health, configured);
        assertWell(configured);
        assertEquals(health, daemon.healthPort());
        assertWell(health);

        // An endpoint on the health listener's port is refused; the one before stays.
        String clash = "127.0.0.1:" + health;
        String refused = setConfig(agent, "HTTPEndpoint: '" + clash + "'\n");
        assertTrue(
            refused.contains(
                "instrumentation.HTTPEndpoint: \""
                    + clash
                    + "\" asks for port "
                    + health
                    + ", which --health-endpoint \"127.0.0.1:0\" serves; expected another port,"
                    + " or \"\" for no HTTP server"),
            refused);
        assertEquals(configured, daemon.metricsPort());
        assertWell(configured);
        assertWell(health);

        // ... and takes it away again: the health port stays.
        assertEquals("", setConfig(agent, NO_HTTP));
        assertEquals(-1, daemon.metricsPort());
        assertEquals(health, daemon.healthPort());
        assertWell(health);
      }
      assertThrows(IOException.class, () -> get(health, "/livez"), "closed with the daemon");
    }
  }

  @Test
  void aConfigurationAskingForTheHealthPortStartsWithoutTheConfiguredServer() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    try (SimRuntimeServer sim = startRuntime()) {
      DaemonOptions options =
          TestDaemons.options(dir, sim.socket(), true).toBuilder()
              .healthEndpoint(Optional.of("127.0.0.1:" + port))
              .build();
      Config clashing = TestDaemons.withInstrumentation(TestDaemons.config(), ":" + port);
      Logger logger = (Logger) LoggerFactory.getLogger(Instrumentation.class);
      ListAppender<ILoggingEvent> logged = new ListAppender<>();
      logged.start();
      logger.addAppender(logged);
      try (Daemon daemon = Daemon.start(options, new ConfigStore(clashing))) {
        assertEquals(port, daemon.healthPort());
        assertEquals(-1, daemon.metricsPort(), "no configured server on the health port");
        assertWell(port);
        assertEquals(404, get(port, "/metrics").statusCode(), "the health listener's own");
      } finally {
        logger.detachAppender(logged);
      }
      // One error naming both, and no bind retried in the background: it could never succeed.
      List<String> lines =
          logged.list.stream()
              .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
              .map(e -> e.getLevel() + " " + e.getFormattedMessage())
              .toList();
      assertEquals(
          List.of(
              "ERROR instrumentation.HTTPEndpoint: \":"
                  + port
                  + "\" asks for port "
                  + port
                  + ", which --health-endpoint \"127.0.0.1:"
                  + port
                  + "\" serves; expected another port, or \"\" for no HTTP server; serving CRI"
                  + " without /metrics and /introspect"),
          lines);
    }
  }

  @Test
  void isNotReadyUntilTheStartHasFinished() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    GatedActivation gate = new GatedActivation();
    try (SimRuntimeServer sim = startRuntime()) {
      DaemonOptions options =
          TestDaemons.options(dir, sim.socket(), true).toBuilder()
              .healthEndpoint(Optional.of("127.0.0.1:" + port))
              .build();
      ConfigStore store = new ConfigStore(GatedActivation.config());
      CompletableFuture<Daemon> starting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return Daemon.start(options, store, gate.policies());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              });
      try {
        assertTrue(gate.awaitActivating(), "the policy was never activated");
        // The policy activates in the background from the start's first steps; the health
        // listener comes next and serves while the start waits for the policy: the relay, the
        // pipeline and their checks do not exist yet.
        HttpResponse<String> ready = getOnceServing(port, "/healthz");
        assertEquals(503, ready.statusCode(), ready.body());
        assertEquals("daemon: starting\n", ready.body());
        HttpResponse<String> live = get(port, "/livez");
        assertEquals(200, live.statusCode(), "a slow start is no reason to restart");
      } finally {
        gate.release();
      }
      try (Daemon daemon = starting.get(60, TimeUnit.SECONDS)) {
        assertEquals(port, daemon.healthPort());
        assertWell(port);
      }
    }
  }

  @Test
  void answersAsTheConfiguredEndpointDoesWhenUnwell() throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host.resolve("sys/devices/system/cpu"));
    Files.writeString(host.resolve("sys/devices/system/cpu/online"), "0-3\n");
    Path nriSocket = dir.resolve("nri.sock"); // no runtime there: not registered, not ready
    DaemonOptions options =
        TestDaemons.options(dir, dir.resolve("no-runtime.sock"), true, host).toBuilder()
            .nri(Optional.of(NriPluginOptions.of("cri-resmgr", "90").withSocket(nriSocket)))
            .healthEndpoint(Optional.of("127.0.0.1:0"))
            .build();
    try (Daemon daemon = Daemon.start(options, new ConfigStore(TestDaemons.config()))) {
      String prefix = "nri: not registered with the runtime on " + nriSocket + " for ";
      for (int port : List.of(daemon.healthPort(), daemon.metricsPort())) {
        HttpResponse<String> ready = get(port, "/healthz");
        assertEquals(503, ready.statusCode(), "port " + port);
        assertTrue(ready.body().startsWith(prefix), ready.body());
        HttpResponse<String> live = get(port, "/livez");
        assertEquals(200, live.statusCode(), "port " + port);
        assertEquals("ok\n", live.body());
      }
    }
  }

  @Test
  void aPortInUseFailsTheStartNamingTheFlag() throws Exception {
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        SimRuntimeServer sim = startRuntime()) {
      String endpoint = "127.0.0.1:" + squatter.getLocalPort();
      DaemonOptions options =
          TestDaemons.options(dir, sim.socket(), true).toBuilder()
              .healthEndpoint(Optional.of(endpoint))
              .build();
      RelayException e =
          assertThrows(
              RelayException.class,
              () -> Daemon.start(options, new ConfigStore(TestDaemons.config())));
      assertTrue(
          e.getMessage().startsWith("--health-endpoint: cannot listen on \"" + endpoint + "\": "),
          e.getMessage());
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
      // What had started was released: the relay socket and the state directory are free again.
      try (Daemon again =
          Daemon.start(
              options.toBuilder().healthEndpoint(Optional.empty()).build(),
              new ConfigStore(TestDaemons.config()))) {
        assertEquals(-1, again.healthPort());
      }
    }
  }
}
