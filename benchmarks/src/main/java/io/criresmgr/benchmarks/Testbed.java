package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.dump.MessageDumper;
import io.criresmgr.proxy.metrics.RelayMetrics;
import io.criresmgr.proxy.relay.CompositeRelayListener;
import io.criresmgr.proxy.relay.RelayHandlerRegistry;
import io.criresmgr.proxy.relay.RelayListener;
import io.criresmgr.proxy.relay.RelayServer;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.testkit.InProcessDaemon;
import io.grpc.ManagedChannel;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backend (by default a {@link VersionBackend}), optionally a relay in front of it (per {@link
 * Route}), and one client channel to the front socket shared by all benchmark threads, as kubelet
 * shares one connection.
 */
public final class Testbed implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Testbed.class);

  /** The request every benchmark call sends. */
  public static final VersionRequest REQUEST = VersionRequest.newBuilder().setVersion("v1").build();

  private final Deque<AutoCloseable> resources;
  private final ManagedChannel channel;
  private final RuntimeServiceBlockingStub stub;

  private Testbed(Deque<AutoCloseable> resources, ManagedChannel channel) {
    this.resources = resources;
    this.channel = channel;
    this.stub = RuntimeServiceGrpc.newBlockingStub(channel);
  }

  /** Starts a runtime backend on a Unix socket; closing the result stops it. */
  @FunctionalInterface
  public interface Backend {
    /** Binds {@code socket} and serves; the runtime must answer Version as "containerd". */
    AutoCloseable start(Path socket) throws IOException;
  }

  /**
   * Starts the parts of {@code route} with their sockets in {@code dir}, and checks with one call
   * that the client reaches the backend. On failure, closes what was started and rethrows.
   */
  public static Testbed start(Route route, Path dir) throws Exception {
    return start(route, dir, VersionBackend::start, InProcessDaemon.config());
  }

  /**
   * Starts {@code backend} and the parts of {@code route} in front of it, the daemon (if any) with
   * {@code daemonConfig}; otherwise as {@link #start(Route, Path)}.
   */
  public static Testbed start(Route route, Path dir, Backend backend, Config daemonConfig)
      throws Exception {
    Deque<AutoCloseable> resources = new ArrayDeque<>();
    try {
      Path backendSocket = dir.resolve("runtime.sock");
      resources.push(backend.start(backendSocket));
      Path front = startFront(route, dir, backendSocket, daemonConfig, resources);
      Testbed bed = new Testbed(resources, client(front, resources));
      String name = bed.stub.version(REQUEST).getRuntimeName();
      if (!name.equals(VersionBackend.VERSION.getRuntimeName())) {
        throw new IllegalStateException("unexpected runtime name " + name + " via " + route);
      }
      return bed;
    } catch (Exception | Error e) {
      closeAll(resources);
      throw e;
    }
  }

  /** Starts what {@code route} puts in front of the backend; returns the socket to call. */
  private static Path startFront(
      Route route, Path dir, Path backend, Config daemonConfig, Deque<AutoCloseable> resources)
      throws InterruptedException {
    return switch (route) {
      case DIRECT -> backend;
      case CRI_RESMGR -> startDaemon(dir, backend, daemonConfig, resources);
      case BARE_RELAY -> startRelay(dir, backend, RelayListener.NONE, 1, resources);
      case RELAY_WITH_LISTENERS ->
          startRelay(dir, backend, daemonListeners(resources), 1, resources);
      case BARE_RELAY_TWO_LOOPS -> startRelay(dir, backend, RelayListener.NONE, 2, resources);
    };
  }

  /** The blocking CRI runtime stub of the shared client channel. */
  public RuntimeServiceBlockingStub stub() {
    return stub;
  }

  /** The shared client channel, for async or differently configured stubs. */
  public ManagedChannel channel() {
    return channel;
  }

  private static Path startDaemon(
      Path dir, Path backend, Config config, Deque<AutoCloseable> resources)
      throws InterruptedException {
    // The real host's CPUs: an empty host root is the real root, as --host-root says.
    resources.push(
        Daemon.start(InProcessDaemon.options(dir, backend, Path.of("")), new ConfigStore(config)));
    return dir.resolve("relay/cri-resmgr.sock");
  }

  /**
   * The daemon's relay wiring (same loops and channel settings) with only {@code listener}, on
   * {@code ioThreads} I/O threads (the daemon has one).
   */
  private static Path startRelay(
      Path dir,
      Path backend,
      RelayListener listener,
      int ioThreads,
      Deque<AutoCloseable> resources) {
    Path front = dir.resolve("relay.sock");
    EventLoopGroup workers =
        EventLoops.epoll("relay-io", ioThreads); // also accepts, as the daemon's
    resources.push(() -> EventLoops.shutdown(workers));
    ManagedChannel runtime = RuntimeChannels.channel(backend, workers);
    resources.push(() -> Shutdown.now(Duration.ofSeconds(5), Shutdown.of(runtime)));
    RelayHandlerRegistry registry = new RelayHandlerRegistry(runtime, runtime, listener);
    resources.push(RelayServer.start(front, workers, workers, registry, List.of()));
    return front;
  }

  /** The daemon's listeners: metrics in a Prometheus registry, then the default message dump. */
  private static RelayListener daemonListeners(Deque<AutoCloseable> resources) {
    MessageDumper dumper = new MessageDumper(DumpConfig.defaults());
    resources.push(dumper);
    RelayMetrics metrics = new RelayMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    return new CompositeRelayListener(List.of(metrics, dumper));
  }

  private static ManagedChannel client(Path front, Deque<AutoCloseable> resources) {
    EventLoopGroup loop = EventLoops.epoll("client", 1);
    resources.push(() -> EventLoops.shutdown(loop));
    ManagedChannel channel = RuntimeChannels.channel(front, loop);
    resources.push(() -> Shutdown.now(Duration.ofSeconds(5), Shutdown.of(channel)));
    return channel;
  }

  /** Closes everything in reverse start order. */
  @Override
  public void close() {
    closeAll(resources);
  }

  private static void closeAll(Deque<AutoCloseable> resources) {
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        LOG.warn("benchmark teardown: {}", e.toString());
      }
    }
  }
}
