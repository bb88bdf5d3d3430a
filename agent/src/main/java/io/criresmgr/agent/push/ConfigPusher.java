package io.criresmgr.agent.push;

import io.criresmgr.agent.config.ChosenConfig;
import io.criresmgr.agent.config.ConfigSink;
import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetConfigReply;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes each chosen configuration to the daemon with {@code v1.Config.SetConfig} through a {@link
 * DaemonPusher} (5 s deadline, retries with the latest configuration while the daemon is away,
 * pushes again after it restarts). A rejection (a non-empty {@code error} in the reply, or a gRPC
 * error that is not about the transport) is kept as the {@link #status()}, logged once and not
 * retried.
 */
public final class ConfigPusher implements ConfigSink, AutoCloseable {
  /** cri-resmgr-agent's deadline of a SetConfig call. */
  public static final Duration DEADLINE = DaemonPusher.DEADLINE;

  /** cri-resmgr-agent's delay before trying again after a transport failure. */
  public static final Duration DEFAULT_RETRY_DELAY = DaemonPusher.DEFAULT_RETRY_DELAY;

  private static final Logger log = LoggerFactory.getLogger(ConfigPusher.class);

  private final DaemonPusher<ChosenConfig, SetConfigRequest, SetConfigReply> pusher;
  private volatile ConfigStatus status = ConfigStatus.PENDING;
  private volatile Consumer<ConfigStatus> listener = changed -> {};

  private ConfigPusher(Path socket, String nodeName, Duration retryDelay) {
    pusher = DaemonPusher.open(socket, retryDelay, "config-push", new SetConfig(nodeName));
  }

  /**
   * A pusher to the daemon's config socket {@code socket} for node {@code nodeName}, trying again
   * {@code retryDelay} after a transport failure. It connects on the first push.
   */
  public static ConfigPusher open(Path socket, String nodeName, Duration retryDelay) {
    Objects.requireNonNull(nodeName, "nodeName");
    return new ConfigPusher(socket, nodeName, retryDelay);
  }

  /** Pushes {@code config} as soon as no other push is under way; returns at once. */
  @Override
  public void accept(ChosenConfig config) {
    pusher.accept(config);
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

  /** Stops pushing and closes the connection. */
  @Override
  public void close() {
    pusher.close();
  }

  /** SetConfig, and the daemon's verdict kept as the status. */
  private final class SetConfig
      implements DaemonPusher.Call<ChosenConfig, SetConfigRequest, SetConfigReply> {
    private final String nodeName;
    private @Nullable ChosenConfig warned;

    SetConfig(String nodeName) {
      this.nodeName = nodeName;
    }

    @Override
    public MethodDescriptor<SetConfigRequest, SetConfigReply> method() {
      return ConfigGrpc.getSetConfigMethod();
    }

    @Override
    public SetConfigRequest request(ChosenConfig config) {
      return SetConfigRequest.newBuilder()
          .setNodeName(nodeName)
          .putAllConfig(config.data())
          .build();
    }

    @Override
    public void answered(ChosenConfig config, SetConfigReply reply) {
      if (reply.getError().isEmpty()) {
        setStatus(ConfigStatus.accepted(config.source()));
        log.info("cri-resmgr applied the configuration from {}", config.source());
      } else {
        rejected(config, reply.getError());
      }
    }

    @Override
    public void refused(ChosenConfig config, Status why) {
      rejected(config, DaemonPusher.describe(why));
    }

    private void rejected(ChosenConfig config, String error) {
      setStatus(ConfigStatus.rejected(config.source(), error));
      if (!config.equals(warned)) {
        warned = config;
        log.warn("cri-resmgr rejected the configuration from {}: {}", config.source(), error);
      }
    }

    @Override
    public String describe(ChosenConfig config) {
      return "the configuration from " + config.source();
    }
  }
}
