package io.criresmgr.proxy.configserver;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.criresmgr.proxy.relay.RelayException;
import io.criresmgr.proxy.relay.RelaySocket;
import io.criresmgr.proxy.relay.UnixFiles;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC server on the config socket: the {@code v1.Config} service and the standard health
 * service ({@code SERVING} for the server and {@code v1.Config} while it runs). The socket is
 * claimed like the relay socket (a stale file is replaced, a live one refused) and gets mode 0600:
 * only root may configure the daemon.
 */
public final class ConfigServer implements AutoCloseable {
  /** The mode of the config socket. */
  public static final int SOCKET_MODE = 0600;

  private static final Logger LOG = LoggerFactory.getLogger(ConfigServer.class);

  private final RelaySocket socket;
  private final Server server;
  private final HealthStatusManager health;

  private ConfigServer(RelaySocket socket, Server server, HealthStatusManager health) {
    this.socket = socket;
    this.server = server;
    this.health = health;
  }

  /**
   * Claims {@code path} and serves {@code service} on it with loops {@code boss}, {@code workers}.
   */
  public static ConfigServer start(
      Path path, EventLoopGroup boss, EventLoopGroup workers, ConfigService service) {
    RelaySocket socket = RelaySocket.claim(path);
    HealthStatusManager health = new HealthStatusManager();
    Server server;
    try {
      server =
          UnixGrpc.server(path, boss, workers)
              .addService(service)
              .addService(health.getHealthService())
              .build()
              .start();
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
      throw new RelayException("cannot serve the config socket " + path + ": " + e.getMessage(), e);
    }
    ConfigServer started = new ConfigServer(socket, server, health);
    try {
      UnixFiles.chmod(path, SOCKET_MODE);
    } catch (IOException e) {
      started.close();
      throw new RelayException("cannot set the mode of " + path + ": " + e.getMessage(), e);
    }
    health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
    health.setStatus(ConfigGrpc.SERVICE_NAME, ServingStatus.SERVING);
    LOG.info("serving configuration for the node agent on {}", path);
    return started;
  }

  /** The socket path. */
  public Path path() {
    return socket.path();
  }

  /** Reports NOT_SERVING to health watchers, stops serving and removes the socket file. */
  @Override
  public void close() {
    health.enterTerminalState();
    Shutdown.gracefully(Shutdown.of(server), Duration.ofSeconds(5));
    try {
      Files.deleteIfExists(socket.path());
    } catch (IOException e) {
      LOG.warn("cannot remove {}: {}", socket.path(), e.getMessage());
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(RelaySocket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      LOG.warn("cannot release {}: {}", socket.path(), e.getMessage());
    }
  }
}
