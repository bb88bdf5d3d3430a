package io.criresmgr.proxy.daemon;

import io.criresmgr.cache.files.StateDirectory;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.NativeTransportException;
import io.criresmgr.nri.NriPluginOptions;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.configserver.AdjustmentUpdater;
import io.criresmgr.proxy.configserver.AgentConfigUpdater;
import io.criresmgr.proxy.configserver.AgentMetrics;
import io.criresmgr.proxy.configserver.ConfigServer;
import io.criresmgr.proxy.configserver.ConfigService;
import io.criresmgr.proxy.core.ActivePolicy;
import io.criresmgr.proxy.core.Introspection;
import io.criresmgr.proxy.core.Pipeline;
import io.criresmgr.proxy.core.PolicyGauges;
import io.criresmgr.proxy.core.SyncException;
import io.criresmgr.proxy.dump.MessageDumper;
import io.criresmgr.proxy.metrics.Health;
import io.criresmgr.proxy.metrics.Instrumentation;
import io.criresmgr.proxy.metrics.MetricsServer;
import io.criresmgr.proxy.metrics.RelayMetrics;
import io.criresmgr.proxy.nri.NriMode;
import io.criresmgr.proxy.relay.CompositeRelayListener;
import io.criresmgr.proxy.relay.InterceptedService;
import io.criresmgr.proxy.relay.ListenFds;
import io.criresmgr.proxy.relay.PidFile;
import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.proxy.relay.RelayHandlerRegistry;
import io.criresmgr.proxy.relay.RelayListener;
import io.criresmgr.proxy.relay.RelayServer;
import io.criresmgr.proxy.relay.RelaySocket;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.proxy.relay.VersionCheck;
import io.criresmgr.proxy.signals.Signals;
import io.criresmgr.proxy.ui.NodeView;
import io.grpc.ServerServiceDefinition;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running daemon. Start-up order (docs/architecture.md, "Start-up and shutdown"; why:
 * docs/adr/0007-relay-socket-ownership-and-socket-activation.md): begin activating the policy on a
 * thread of its own, claim the relay socket (refusing a live one), wait for the runtime, check its
 * version, start instrumentation and the message dump, restore the cache (once the policy is
 * active) and reconcile it with the runtime, serve the relay socket, set its permissions, write the
 * PID file, follow configuration changes, serve the node agent's config socket. Resources are
 * closed in reverse order. In NRI mode ({@code --nri}, docs/nri.md) the relay's parts are replaced
 * by the NRI front end, which reconciles at the runtime's Synchronize.
 */
public final class Daemon implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Daemon.class);

  /**
   * How often the relay socket is checked (a stat call) although the kernel reports its removal at
   * once: for what sends no event, such as a file system mounted over its directory.
   */
  static final Duration SOCKET_CHECK_BACKSTOP = Duration.ofSeconds(30);

  /** How often the relay socket is checked while its directory cannot be watched. */
  static final Duration SOCKET_CHECK_FALLBACK = Duration.ofSeconds(1);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Health health = new Health();
  private final AtomicReference<@Nullable String> fatalError = new AtomicReference<>();
  private @Nullable Instrumentation instrumentation; // set while starting
  private @Nullable MetricsServer healthServer; // with --health-endpoint, set while starting
  private boolean handleSignals; // set before starting; only run() takes the process's signals
  private final List<Signals.Registration> signals = new ArrayList<>();

  private Daemon() {}

  /**
   * Runs the daemon until the process is told to stop; returns the exit status. Failures to start
   * are logged once as {@code FATAL ERROR: ...} and give status 1.
   */
  public static int run(DaemonOptions options, ConfigStore config) {
    return run(options, config, Optional.empty());
  }

  /**
   * {@link #run(DaemonOptions, ConfigStore)} with the runtime connection begun while the
   * configuration loaded, if any; the daemon takes it over.
   */
  public static int run(
      DaemonOptions options, ConfigStore config, Optional<RuntimeConnection> early) {
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    ThreadDeaths deaths = new ThreadDeaths();
    Thread.setDefaultUncaughtExceptionHandler(deaths);
    try {
      Daemon daemon;
      try {
        daemon = serve(options, config, BuiltInPolicies.registry(), true, early);
      } catch (RelayException | SyncException | ConfigException | NativeTransportException e) {
        LOG.error("FATAL ERROR: {}", e.getMessage());
        return 1;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }
      Runtime.getRuntime().addShutdownHook(new Thread(daemon::close, "shutdown"));
      deaths.attach(daemon);
      daemon.instrumentation().bindJvmMetrics(); // once serving, and stoppable in order meanwhile
      try {
        daemon.awaitStop();
      } finally {
        daemon.releaseSignals();
      }
      return daemon.fatalError().isPresent() ? 1 : 0;
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
  }

  /**
   * A thread that dies of an uncaught exception leaves part of the daemon silently dead: it is
   * logged and stops the daemon with status 1, so the service manager restarts the daemon into a
   * consistent state. A death during the start stops the daemon as soon as it has started.
   */
  private static final class ThreadDeaths implements Thread.UncaughtExceptionHandler {
    private @Nullable Daemon daemon;
    private @Nullable String early;

    @Override
    public void uncaughtException(Thread thread, Throwable e) {
      LOG.error("thread {} died", thread.getName(), e);
      String reason = "thread " + thread.getName() + " died: " + e;
      Daemon target;
      synchronized (this) {
        target = daemon;
        if (target == null && early == null) {
          early = reason;
        }
      }
      if (target != null) {
        target.fatal(reason);
      }
    }

    synchronized void attach(Daemon started) {
      daemon = started;
      if (early != null) {
        started.fatal(early);
      }
    }
  }

  /**
   * Stops the daemon because part of it can no longer work; {@link #run} then exits with status 1.
   * Only the first reason is kept.
   */
  void fatal(String reason) {
    if (fatalError.compareAndSet(null, reason)) {
      LOG.error("FATAL ERROR: {}", reason);
      Thread stopper = new Thread(this::close, "fatal-stop");
      stopper.setDaemon(false);
      stopper.start();
    }
  }

  /** Why the daemon stopped by itself, if it did. */
  public Optional<String> fatalError() {
    return Optional.ofNullable(fatalError.get());
  }

  /** What {@code /healthz} reports. */
  public Health health() {
    return health;
  }

  /** The part of {@link #health} that reports the start until it has finished. */
  static final String STARTING = "daemon";

  /** Starts every part of the daemon; on failure, closes what was started and rethrows. */
  public static Daemon start(DaemonOptions options, ConfigStore config)
      throws InterruptedException {
    return start(options, config, BuiltInPolicies.registry());
  }

  /** Starts the daemon with the policies of {@code policies} (tests add their own). */
  public static Daemon start(DaemonOptions options, ConfigStore config, PolicyRegistry policies)
      throws InterruptedException {
    Daemon daemon = serve(options, config, policies, false, Optional.empty());
    daemon.instrumentation().bindJvmMetrics();
    return daemon;
  }

  /**
   * Starts every part but the JVM and process metrics, which {@link #run} binds once the relay
   * serves (they are not needed to serve; docs/benchmarks.md, "Start-up").
   */
  private static Daemon serve(
      DaemonOptions options,
      ConfigStore config,
      PolicyRegistry policies,
      boolean handleSignals,
      Optional<RuntimeConnection> early)
      throws InterruptedException {
    Daemon daemon = new Daemon();
    daemon.handleSignals = handleSignals;
    // The health endpoint serves before the parts that register the other checks (relay,
    // pipeline, NRI) are up: until then it must not answer "ok".
    daemon.health.register(STARTING, () -> Optional.of("starting"));
    try {
      daemon.startParts(options, config, policies, early);
      return daemon;
    } catch (RuntimeException | InterruptedException e) {
      daemon.close();
      daemon.releaseSignals();
      throw e;
    }
  }

  /**
   * Starts the parts while holding this daemon's lock, so that a {@link #close} on a signal that
   * arrives once the handlers are in place waits for the start to finish and then stops it in
   * order.
   */
  private synchronized void startParts(
      DaemonOptions options,
      ConfigStore store,
      PolicyRegistry policies,
      Optional<RuntimeConnection> early)
      throws InterruptedException {
    if (handleSignals) { // the process's daemon: systemd's watchdog, if its unit asks for one
      SystemdWatchdog.start(System.getenv(), ProcessHandle.current().pid(), health)
          .ifPresent(this::own);
    }
    if (options.nri().isPresent()) {
      startNriParts(options, options.nri().get(), store, policies);
      return;
    }
    RuntimeConnection.requireConnectable(options);
    early.filter(e -> !e.isFor(options)).ifPresent(RuntimeConnection::close);
    RuntimeConnection connection =
        own(early.filter(e -> e.isFor(options)).orElseGet(() -> RuntimeConnection.begin(options)));
    Config config = store.current();
    // Reads the host only: overlaps claiming the socket, the runtime's connection and
    // instrumentation; awaited (and its failure thrown) by ResourceManagement.start.
    CompletableFuture<ActivePolicy> policy =
        ResourceManagement.activateInBackground(policies, config, options.hostRoot());
    OptionalInt inherited = ListenFds.relayFd(options.relaySocket());
    RelaySocket socket =
        own(
            inherited.isPresent()
                ? RelaySocket.claimInherited(options.relaySocket())
                : RelaySocket.claim(options.relaySocket()));
    createRelayDir(options.relayDir());
    own(StateDirLock.claim(options.relayDir()));
    RuntimeConnection.Parts runtime = connection.take();
    // The relay's loops also accept: a loop of its own would wake up every second for nothing
    // (netty's idle loops do), for one connection accepted per kubelet start.
    EventLoopGroup workers = own(runtime.workers());
    EventLoopGroup boss = workers;
    RuntimeChannels channels = own(runtime.channels());
    VersionCheck version = own(runtime.version());

    Instrumentation metrics = startInstrumentation(options, config);
    MessageDumper dumper = own(MessageDumper.starting(config.dump()));
    health.register("dump", dumper::problem);
    RelayListener listener =
        new CompositeRelayListener(List.of(new RelayMetrics(metrics.registry()), dumper));
    RelayHandlerRegistry registry =
        new RelayHandlerRegistry(channels.runtime(), channels.image(), listener);
    ResourceManagement management =
        ResourceManagement.start(options, config, channels.runtime(), version, policies, policy);
    own(management);
    observe(options, management);
    List<ServerServiceDefinition> intercepted =
        List.of(InterceptedService.definition(management.manager().requests(), listener));
    if (inherited.isPresent()) {
      int fd = inherited.getAsInt();
      own(
          RelayServer.startInherited(
              fd, options.relaySocket(), boss, workers, registry, intercepted));
      LOG.info("serving the relay socket systemd passed (fd {})", fd);
    } else {
      serveOwnSocket(options, socket, boss, workers, registry, intercepted);
    }
    takeSignals();
    own(PidFile.write(options.pidFile()));
    listen(store, config, new SectionListener(config, dumper, metrics), management);
    startConfigServer(options, store, policies, management, boss, workers);
    health.unregister(STARTING); // before the line that says so: tests wait for it
    LOG.info(
        "cri-resmgr is up and running, serving CRI on {} ({} ms after the JVM started)",
        options.relaySocket(),
        sinceProcessStart().toMillis());
  }

  /**
   * NRI mode (docs/nri.md): the same state directory, instrumentation, pipeline and config socket
   * as proxy mode, fed by the runtime's NRI instead of the relay. The plugin connects in the
   * background; the start does not wait for the runtime.
   */
  private void startNriParts(
      DaemonOptions options, NriPluginOptions plugin, ConfigStore store, PolicyRegistry policies)
      throws InterruptedException {
    createRelayDir(options.relayDir());
    own(StateDirLock.claim(options.relayDir()));
    Config config = store.current();
    Instrumentation metrics = startInstrumentation(options, config);
    MessageDumper dumper = own(MessageDumper.starting(config.dump()));
    health.register("dump", dumper::problem);
    NriMode nri = own(NriMode.prepare());
    ResourceManagement management =
        own(ResourceManagement.start(options, config, nri.channel(), null, policies));
    observe(options, management);
    own(nri.connect(management.manager(), plugin));
    health.register("nri", nri::problem);
    takeSignals();
    own(PidFile.write(options.pidFile()));
    listen(store, config, new SectionListener(config, dumper, metrics), management);
    EventLoopGroup workers = own(EventLoops.epoll("config-io", 1));
    startConfigServer(options, store, policies, management, workers, workers);
    health.unregister(STARTING); // before the line that says so: tests wait for it
    LOG.info(
        "cri-resmgr is up and running as NRI plugin {}-{}, connecting to {} ({} ms after the JVM"
            + " started)",
        plugin.index(),
        plugin.name(),
        plugin.socket(),
        sinceProcessStart().toMillis());
  }

  /**
   * The instrumentation of {@code config}, whose endpoint is optional (a busy port is retried, not
   * fatal), and the health endpoint of {@code --health-endpoint}, which is not: a port that cannot
   * be bound fails the start, since the probes that ask it would restart the daemon anyway.
   */
  private Instrumentation startInstrumentation(DaemonOptions options, Config config) {
    Instrumentation started = own(new Instrumentation());
    instrumentation = started;
    started.setHealth(health);
    if (options.healthEndpoint().isPresent()) {
      String endpoint = options.healthEndpoint().get();
      try {
        healthServer = own(started.serveHealth(endpoint));
      } catch (IOException | IllegalArgumentException e) {
        throw new RelayException(
            "--health-endpoint: cannot listen on \""
                + endpoint
                + "\": "
                + Objects.requireNonNullElse(e.getMessage(), e.toString()),
            e);
      }
    }
    started.start(config.instrumentation());
    return started;
  }

  /** Health, introspection, the node view and the policy's gauges of {@code management}. */
  private void observe(DaemonOptions options, ResourceManagement management) {
    watch(health, management.manager().pipeline());
    Instrumentation started = instrumentation();
    started.setIntrospection(() -> Introspection.json(management.manager().pipeline()));
    started.setViewPages(new NodeView(management.manager().pipeline(), options.hostRoot()).pages());
    started.setExtraMetrics(() -> PolicyGauges.text(management.manager().pipeline()));
  }

  /**
   * Registers {@code pipeline}'s checks: a cache file that cannot be written waits for the saver's
   * retry ({@code /healthz}); a stuck step calls for a restart ({@code /livez} too).
   */
  static void watch(Health health, Pipeline pipeline) {
    health.register("pipeline", pipeline::saveProblem);
    health.register("pipeline", Health.Remedy.RESTART, pipeline::stuck);
  }

  /** The instrumentation, once starting has created it. */
  private Instrumentation instrumentation() {
    return Objects.requireNonNull(instrumentation, "instrumentation not started yet");
  }

  /** Binds the relay socket itself, keeps it bound ({@link RelayBinding}) and sets its mode. */
  private void serveOwnSocket(
      DaemonOptions options,
      RelaySocket socket,
      EventLoopGroup boss,
      EventLoopGroup workers,
      RelayHandlerRegistry registry,
      List<ServerServiceDefinition> intercepted) {
    RelayBinding relay =
        own(
            RelayBinding.serve(
                options.relaySocket(),
                () -> {
                  RelayServer server =
                      RelayServer.start(
                          options.relaySocket(), boss, workers, registry, intercepted);
                  try {
                    applyPermissions(socket, options.runtimeSocket());
                  } catch (RelayException e) {
                    server.close();
                    throw e;
                  }
                  return server;
                },
                SOCKET_CHECK_BACKSTOP,
                SOCKET_CHECK_FALLBACK,
                this::fatal));
    health.register("relay", relay::problem);
  }

  /**
   * Registers the parts started with {@code config} as listeners of {@code store}; a configuration
   * that became active meanwhile (a reload signal during the start) is applied to them now, or, if
   * they reject it, {@code config} stays active and the rejection is logged like a failed reload.
   */
  private static void listen(
      ConfigStore store, Config config, SectionListener sections, ResourceManagement management) {
    try {
      store.addListeners(config, List.of(sections, management.configListener(config)));
    } catch (ConfigException e) {
      LOG.error(
          "the configuration reloaded during the start was rejected, the one the daemon started"
              + " with stays active: {}",
          e.getMessage());
    }
  }

  /**
   * SIGTERM and SIGINT stop the daemon in order and end it with status 0 (left to the JVM, they end
   * it with 128 + signal, 143, which systemd counts as a failure of the service). Taken just before
   * the PID file is written: whoever sees the daemon started may stop it at once, and the handler's
   * {@link #close} then waits for the start to finish. Released by {@link #run} only after the
   * daemon has stopped, so a second signal during the shutdown is handled the same way.
   */
  private void takeSignals() {
    if (handleSignals) {
      signals.add(Signals.handle("TERM", this::close));
      signals.add(Signals.handle("INT", this::close));
    }
  }

  private void releaseSignals() {
    while (!signals.isEmpty()) {
      signals.remove(signals.size() - 1).close();
    }
  }

  /** How long ago the JVM started (what start-up costs, docs/benchmarks.md). */
  private static Duration sinceProcessStart() {
    return Duration.ofMillis(ManagementFactory.getRuntimeMXBean().getUptime());
  }

  /** The node agent's config socket, unless the configuration is forced (as in cri-resmgr). */
  private void startConfigServer(
      DaemonOptions options,
      ConfigStore store,
      PolicyRegistry policies,
      ResourceManagement management,
      EventLoopGroup boss,
      EventLoopGroup workers) {
    if (options.forceConfig().isPresent() || options.configSocket().isEmpty()) {
      return;
    }
    AgentMetrics metrics = new AgentMetrics(instrumentation().registry());
    AgentConfigUpdater updater =
        new AgentConfigUpdater(
            new ConfigLoader(policies),
            store,
            options.disablePolicySwitch(),
            management::storeAgentConfig,
            metrics);
    AdjustmentUpdater adjustments = new AdjustmentUpdater(management::applyAdjustments, metrics);
    own(
        ConfigServer.start(
            options.configSocket().get(), boss, workers, new ConfigService(updater, adjustments)));
  }

  private <T> T own(T resource) {
    if (resource instanceof AutoCloseable closeable) {
      resources.push(closeable);
    } else if (resource instanceof EventLoopGroup group) {
      resources.push(() -> EventLoops.shutdown(group));
    }
    return resource;
  }

  // Private (0700): it holds pod annotations and the node agent's configuration (docs/files.md).
  private static void createRelayDir(Path dir) {
    try {
      StateDirectory.ensurePrivate(dir);
    } catch (IOException e) {
      throw new RelayException("cannot create relay directory " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void applyPermissions(RelaySocket socket, Path runtimeSocket) {
    try {
      socket.applyPermissions(runtimeSocket);
    } catch (IOException e) {
      throw new RelayException(
          "cannot set owner and mode of " + socket.path() + ": " + e.getMessage(), e);
    }
  }

  /** The HTTP port serving {@code /metrics}, or -1 if none. */
  public int metricsPort() {
    return instrumentation == null ? -1 : instrumentation.port();
  }

  /**
   * The port serving only {@code /livez} and {@code /healthz} ({@code --health-endpoint}), or -1.
   */
  public int healthPort() {
    MetricsServer server = healthServer;
    return server == null ? -1 : server.port();
  }

  /** Blocks until {@link #close} has run. */
  public void awaitStop() {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops serving and releases everything, in reverse start order. Idempotent. */
  @Override
  public synchronized void close() {
    if (stopped.getCount() == 0) {
      return;
    }
    if (!resources.isEmpty()) {
      LOG.info("cri-resmgr shutting down");
    }
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        LOG.warn("error while shutting down: {}", e.toString());
      }
    }
    stopped.countDown();
  }
}
