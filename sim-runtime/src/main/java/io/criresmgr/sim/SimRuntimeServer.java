package io.criresmgr.sim;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.Server;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link SimRuntime} on a Unix domain socket (gRPC over Netty epoll), like containerd
 * serves {@code /run/containerd/containerd.sock}. Takes ownership of the runtime: {@link #close()}
 * closes it, stops the server and its event loops, and removes the socket file.
 */
public final class SimRuntimeServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SimRuntimeServer.class);
  private static final long SHUTDOWN_SECONDS = 5;

  private final Path socket;
  private final SimRuntime runtime;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Server server;

  /** Prepares (does not start) a server for {@code runtime} on {@code socket}. */
  public SimRuntimeServer(Path socket, SimRuntime runtime) {
    this.socket = Objects.requireNonNull(socket, "socket").toAbsolutePath();
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.boss = EventLoops.epoll("sim-runtime-boss", 1);
    this.workers = EventLoops.epoll("sim-runtime-worker", 2);
    this.server = runtime.addTo(UnixGrpc.server(this.socket, boss, workers)).build();
  }

  /**
   * Creates the socket's directory, removes a stale socket file and starts serving.
   *
   * @return this server
   * @throws IOException if the directory cannot be created or the socket cannot be bound
   */
  public SimRuntimeServer start() throws IOException {
    Path parent = socket.getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.deleteIfExists(socket);
    server.start();
    log.debug("simulated runtime listening on {}", socket);
    return this;
  }

  /** The absolute socket path. */
  public Path socket() {
    return socket;
  }

  /** The runtime being served. */
  public SimRuntime runtime() {
    return runtime;
  }

  /** Waits until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /** Ends event streams, stops the server and event loops, removes the socket file. */
  @Override
  public void close() {
    runtime.close();
    Duration limit = Duration.ofSeconds(SHUTDOWN_SECONDS);
    Shutdown.gracefully(Shutdown.of(server), limit, limit, () -> {});
    workers.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
    boss.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
    deleteSocket();
  }

  private void deleteSocket() {
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove socket " + socket, e);
    }
  }
}
