package io.criresmgr.agent.push;

import io.criresmgr.agent.config.ChosenConfig;
import io.criresmgr.agent.config.ConfigSink;
import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetConfigReply;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes each chosen configuration to the daemon with {@code v1.Config.SetConfig}, as cri-resmgr's
 * agent does: 5 s deadline; after a transport failure the latest configuration (never an older one)
 * is tried again every retry delay, for ever; a rejection (a non-empty {@code error} in the reply)
 * is kept as the {@link #status()}, logged once and not retried. When the connection to the daemon
 * drops (the daemon restarted), the latest configuration is pushed again. All of it runs on one
 * thread of its own, so {@link #accept} never blocks the watches.
 */
public final class ConfigPusher implements ConfigSink, AutoCloseable {
  /** cri-resmgr-agent's deadline of a SetConfig call. */
  public static final Duration DEADLINE = Duration.ofSeconds(5);

  /** cri-resmgr-agent's delay before trying again after a transport failure. */
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(ConfigPusher.class);

  private final DaemonChannel daemon;
  private final ManagedChannel channel;
  private final Path socket;
  private final String nodeName;
  private final Duration retryDelay;
  private final ScheduledExecutorService executor;
  private volatile ConfigStatus status = ConfigStatus.PENDING;
  private volatile Consumer<ConfigStatus> listener = changed -> {};
  private volatile boolean closed;
  // The fields below are used only on the executor's thread.
  private @Nullable ChosenConfig latest;
  private @Nullable ChosenConfig answered;
  private @Nullable ChosenConfig warned;
  private boolean busy;
  private boolean watching;
  private int failures;

  private ConfigPusher(Path socket, String nodeName, Duration retryDelay) {
    this.socket = socket;
    this.nodeName = nodeName;
    this.retryDelay = retryDelay;
    this.daemon = DaemonChannel.open(socket);
    this.channel = daemon.channel();
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "config-push");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * A pusher to the daemon's config socket {@code socket} for node {@code nodeName}, trying again
   * {@code retryDelay} after a transport failure. It connects on the first push.
   */
  public static ConfigPusher open(Path socket, String nodeName, Duration retryDelay) {
    Objects.requireNonNull(socket, "socket");
    Objects.requireNonNull(nodeName, "nodeName");
    if (retryDelay.isNegative() || retryDelay.isZero()) {
      throw new IllegalArgumentException("retry delay must be positive: " + retryDelay);
    }
    return new ConfigPusher(socket, nodeName, retryDelay);
  }

  /** Pushes {@code config} as soon as no other push is under way; returns at once. */
  @Override
  public void accept(ChosenConfig config) {
    Objects.requireNonNull(config, "config");
    run(
        () -> {
          latest = config;
          pushIfDue();
        });
  }

  /** The daemon's verdict on the latest configuration it answered for. */
  public ConfigStatus status() {
    return status;
  }

  /**
   * Calls {@code listener} with each status that differs from the one before, on the pusher's
   * thread: it must not block. Replaces the previous listener.
   */
  public void onStatusChange(Consumer<ConfigStatus> listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  private void setStatus(ConfigStatus next) {
    ConfigStatus previous = status;
    status = next;
    if (!next.equals(previous)) {
      listener.accept(next);
    }
  }

  private void pushIfDue() {
    ChosenConfig config = latest;
    if (busy || config == null || config.equals(answered)) {
      return;
    }
    busy = true;
    SetConfigRequest request =
        SetConfigRequest.newBuilder().setNodeName(nodeName).putAllConfig(config.data()).build();
    ConfigGrpc.newStub(channel)
        .withDeadlineAfter(DEADLINE.toNanos(), TimeUnit.NANOSECONDS)
        .withExecutor(executor)
        .setConfig(request, new ReplyObserver(config));
  }

  private void answered(ChosenConfig config, SetConfigReply reply) {
    busy = false;
    if (failures > 0) {
      log.info("reached cri-resmgr on {} again", socket);
    }
    failures = 0;
    answered = config;
    if (reply.getError().isEmpty()) {
      setStatus(ConfigStatus.accepted(config.source()));
      log.info("cri-resmgr applied the configuration from {}", config.source());
    } else {
      setStatus(ConfigStatus.rejected(config.source(), reply.getError()));
      warnOnce(config, reply.getError());
    }
    watchConnection();
    pushIfDue();
  }

  private void warnOnce(ChosenConfig config, String error) {
    if (!config.equals(warned)) {
      warned = config;
      log.warn("cri-resmgr rejected the configuration from {}: {}", config.source(), error);
    }
  }

  private void failed(ChosenConfig config, Throwable t) {
    if (closed) {
      return;
    }
    failures++;
    Status why = Status.fromThrowable(t);
    String text = why.getCode() + (why.getDescription() == null ? "" : ": " + why.getDescription());
    if (failures == 1) {
      log.warn(
          "cannot push the configuration from {} to cri-resmgr on {} ({}); retrying every {} s",
          config.source(),
          socket,
          text,
          retryDelay.toMillis() / 1000.0);
    } else {
      log.debug("push to {} failed again ({})", socket, text);
    }
    try {
      executor.schedule(this::retry, retryDelay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      log.debug("configuration push stopped; no retry");
    }
  }

  private void retry() {
    busy = false;
    // The daemon may be back long before gRPC's own reconnect backoff would notice.
    channel.resetConnectBackoff();
    pushIfDue();
  }

  /** Notices a dropped connection: a restarted daemon gets the latest configuration again. */
  private void watchConnection() {
    if (!watching) {
      watching = true;
      channel.notifyWhenStateChanged(ConnectivityState.READY, () -> run(this::connectionChanged));
    }
  }

  private void connectionChanged() {
    watching = false;
    ConnectivityState state = channel.getState(false);
    if (state == ConnectivityState.READY) {
      watchConnection();
    } else if (state != ConnectivityState.SHUTDOWN && !closed) {
      log.info("lost the connection to cri-resmgr on {}; pushing the configuration again", socket);
      answered = null;
      pushIfDue();
    }
  }

  private void run(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      log.debug("configuration push stopped; dropped a task");
    }
  }

  /** Stops pushing and closes the connection. */
  @Override
  public void close() {
    closed = true;
    // The channel first: the cancelled call's callback still finds the executor running.
    daemon.close();
    executor.shutdownNow();
  }

  /** Hands one call's outcome to the pusher's thread (the call runs with its executor). */
  private final class ReplyObserver implements StreamObserver<SetConfigReply> {
    private final ChosenConfig config;
    private @Nullable SetConfigReply reply;

    ReplyObserver(ChosenConfig config) {
      this.config = config;
    }

    @Override
    public void onNext(SetConfigReply value) {
      reply = value;
    }

    @Override
    public void onError(Throwable t) {
      failed(config, t);
    }

    @Override
    public void onCompleted() {
      SetConfigReply received = reply;
      if (received == null) {
        failed(config, Status.INTERNAL.withDescription("no reply").asRuntimeException());
      } else {
        answered(config, received);
      }
    }
  }
}
