package io.criresmgr.agent.server;

import io.criresmgr.api.agent.v1.AgentGrpc;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC server on the agent socket: {@code v1.Agent} and the standard health service ({@code
 * SERVING} while it runs), on one epoll loop. A stale socket file is replaced, a live one refused;
 * the socket gets mode 0600, since its API patches the Node with the agent's rights.
 */
public final class AgentServer implements AutoCloseable {
  /** The agent socket of cri-resmgr's agent, the default of the agent and of its probe. */
  public static final String DEFAULT_SOCKET = "/var/run/cri-resmgr/cri-resmgr-agent.sock";

  private static final Logger log = LoggerFactory.getLogger(AgentServer.class);

  private final Path path;
  private final Server server;
  private final HealthStatusManager health;
  private final EventLoopGroup group;

  private AgentServer(Path path, Server server, HealthStatusManager health, EventLoopGroup group) {
    this.path = path;
    this.server = server;
    this.health = health;
    this.group = group;
  }

  /** Serves {@code service} on the Unix socket {@code path}. */
  public static AgentServer start(Path path, AgentService service) throws IOException {
    SocketFile.prepare(path);
    EventLoopGroup group = EventLoops.epoll("agent-api-io", 1);
    HealthStatusManager health = new HealthStatusManager();
    Server server;
    try {
      server = build(path, group, service, health).start();
    } catch (IOException | RuntimeException e) {
      var unused = group.shutdownGracefully(0, 1, TimeUnit.SECONDS); // its threads are daemons
      throw new IOException("cannot serve the agent socket " + path + ": " + e.getMessage(), e);
    }
    AgentServer started = new AgentServer(path, server, health, group);
    try {
      SocketFile.restrict(path);
    } catch (IOException e) {
      started.close();
      throw new IOException("cannot set the mode of " + path + ": " + e.getMessage(), e);
    }
    health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
    health.setStatus(AgentGrpc.SERVICE_NAME, ServingStatus.SERVING);
    log.info("serving the agent API on {}", path);
    return started;
  }

  private static Server build(
      Path path, EventLoopGroup group, AgentService service, HealthStatusManager health) {
    return UnixGrpc.server(path, group, group)
        .addService(service)
        .addService(health.getHealthService())
        .build();
  }

  /** The socket path. */
  public Path path() {
    return path;
  }

  /** Reports NOT_SERVING to health watchers, stops serving and removes the socket file. */
  @Override
  public void close() {
    health.enterTerminalState();
    Shutdown.gracefully(Shutdown.of(server), Duration.ofSeconds(5));
    var unused = group.shutdownGracefully(0, 1, TimeUnit.SECONDS); // its threads are daemons
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      log.warn("cannot remove {}: {}", path, e.getMessage());
    }
  }
}
