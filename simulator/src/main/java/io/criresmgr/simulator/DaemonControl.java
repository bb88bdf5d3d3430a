package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.log.LogControl;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The simulated runtime on a Unix socket and the real daemon in front of it, in one directory:
 * starts, stops and restarts the daemon with a configuration (the relay directory, hence the cache,
 * survives restarts), gives stubs through the relay and directly to the runtime, and reads {@code
 * /introspect} and {@code /metrics}; reconfigures the running daemon as its reloader does. The
 * configuration's HTTP endpoint is replaced by a free loopback port, and its {@code logger.Debug}
 * is applied to the process's logging.
 */
final class DaemonControl implements LiveDaemon, AutoCloseable {
  private static final long CALL_SECONDS = 30;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final Path hostRoot;
  private final PolicyRegistry registry;
  private final SimRuntimeServer sim;
  private final EventLoopGroup clients = EventLoops.epoll("scenario-client", 1);
  private final ManagedChannel runtimeChannel;
  private final LogControl logs = LogControl.forLogback(System.getenv(LogControl.ENV));
  private final HttpClient http = HttpClient.newHttpClient();
  private @Nullable Daemon daemon;
  private @Nullable ConfigStore store;
  private @Nullable ManagedChannel relayChannel;

  /** Starts the simulated runtime in {@code dir}; the daemon is started by {@link #start}. */
  DaemonControl(Path dir, Path hostRoot, PolicyRegistry registry) throws IOException {
    this.dir = dir;
    this.hostRoot = hostRoot;
    this.registry = registry;
    SimRuntime runtime =
        new SimRuntime(
            SimOptions.defaults()
                .withRuntimeName("containerd")
                .withImages(List.of(KubeletConfigs.IMAGE)));
    sim = new SimRuntimeServer(dir.resolve("runtime/containerd.sock"), runtime).start();
    runtimeChannel = RuntimeChannels.channel(sim.socket(), clients);
  }

  /** The simulated runtime. */
  SimRuntime runtime() {
    return sim.runtime();
  }

  /** Parses {@code yaml} (empty: the defaults) as the daemon would read {@code --force-config}. */
  Config parse(String yaml) {
    Config parsed =
        yaml.isBlank() ? Config.defaults() : new ConfigLoader(registry).parse("config", yaml);
    InstrumentationConfig i = parsed.instrumentation();
    return new Config(
        parsed.policy(),
        parsed.resourceManager(),
        parsed.dump(),
        parsed.logger(),
        new InstrumentationConfig(
            i.sampling(),
            i.reportPeriod(),
            i.jaegerCollector(),
            i.jaegerAgent(),
            "127.0.0.1:0",
            i.prometheusExport()),
        parsed.controllerSections());
  }

  /**
   * Starts the daemon with {@code yaml}.
   *
   * @throws RuntimeException what the configuration loader or the daemon threw
   */
  void start(String yaml) throws InterruptedException {
    if (daemon != null) {
      throw new IllegalStateException("the daemon is running");
    }
    Config config = parse(yaml);
    logs.configChanged(config);
    ConfigStore configs = new ConfigStore(config);
    daemon = Daemon.start(options(), configs, registry);
    // After the daemon's own listeners, as cri-resmgr's logger follows an accepted configuration.
    configs.addListener(logs);
    store = configs;
    relayChannel = RuntimeChannels.channel(dir.resolve("relay/cri-resmgr.sock"), clients);
  }

  /** Stops the daemon if it runs (it saves the cache on the way out). */
  void stop() {
    if (relayChannel != null) {
      relayChannel.shutdownNow();
      relayChannel = null;
    }
    if (daemon != null) {
      daemon.close();
      daemon = null;
    }
    store = null;
  }

  /**
   * Makes {@code yaml} the running daemon's configuration, as its reloader does for {@code
   * --force-config-signal}: parsed like {@code --force-config}, then offered to every listener (the
   * pipeline applies new policy options and rebalances); a rejected one leaves the previous
   * configuration active.
   *
   * @throws io.criresmgr.proxy.config.ConfigException if it does not parse or is rejected
   * @throws KubeletException if the daemon is not running
   */
  void reconfigure(String yaml) {
    ConfigStore configs = store;
    if (configs == null) {
      throw new KubeletException("the daemon is not running (a restart failed)");
    }
    configs.update(parse(yaml));
  }

  /** The daemon's {@code /metrics} page; empty if it serves none (PrometheusExport off). */
  Optional<String> metrics() {
    return get("/metrics").map(r -> r.statusCode() == 200 ? r.body() : null);
  }

  /** Whether the daemon runs. */
  boolean running() {
    return daemon != null;
  }

  /** A stub calling through the daemon, as kubelet does. */
  RuntimeServiceBlockingStub relay() {
    if (relayChannel == null) {
      throw new KubeletException("the daemon is not running (a restart failed)");
    }
    return RuntimeServiceGrpc.newBlockingStub(relayChannel)
        .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
  }

  /** A stub calling the runtime directly. */
  RuntimeServiceBlockingStub direct() {
    return RuntimeServiceGrpc.newBlockingStub(runtimeChannel)
        .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
  }

  /** The daemon's {@code /introspect} document; a missing node if it is not running. */
  JsonNode introspect() {
    Optional<HttpResponse<String>> response = get("/introspect");
    if (response.isEmpty() || response.get().statusCode() != 200) {
      return MissingNode.getInstance();
    }
    try {
      return JSON.readTree(response.get().body());
    } catch (IOException e) {
      return MissingNode.getInstance();
    }
  }

  @Override
  public Optional<String> nodeModel() {
    return get("/ui/node.json").filter(r -> r.statusCode() == 200).map(HttpResponse::body);
  }

  @Override
  public Optional<URI> endpoint() {
    Daemon d = daemon;
    int port = d == null ? -1 : d.metricsPort();
    return port < 0 ? Optional.empty() : Optional.of(URI.create("http://127.0.0.1:" + port));
  }

  /** GETs {@code path} from the daemon's HTTP endpoint; empty if it does not answer. */
  private Optional<HttpResponse<String>> get(String path) {
    Optional<URI> root = endpoint();
    if (root.isEmpty()) {
      return Optional.empty();
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(root.get() + path))
            .timeout(Duration.ofSeconds(CALL_SECONDS))
            .build();
    try {
      return Optional.of(http.send(request, HttpResponse.BodyHandlers.ofString()));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private DaemonOptions options() {
    return DaemonOptions.builder()
        .runtimeSocket(sim.socket())
        .relaySocket(dir.resolve("relay/cri-resmgr.sock"))
        .relayDir(dir.resolve("state"))
        .hostRoot(hostRoot)
        // The simulated containers have no cgroups: host controllers must not look at the real
        // ones. Under the generated tree they find none and stay off (one message at start).
        .cgroupMount(hostRoot.resolve("sys/fs/cgroup"))
        .pidFile(dir.resolve("cri-resmgr.pid"))
        .build();
  }

  @Override
  public void close() {
    stop();
    runtimeChannel.shutdownNow();
    sim.close();
    EventLoops.shutdown(clients);
    logs.apply(io.criresmgr.proxy.config.DebugSpec.none());
  }
}
