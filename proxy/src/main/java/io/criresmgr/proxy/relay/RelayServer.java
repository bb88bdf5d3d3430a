package io.criresmgr.proxy.relay;

import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.HandlerRegistry;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC server on the relay socket. Every method not served by one of {@code services} (the
 * intercepted ones) falls through to {@code fallback} (the raw relay).
 */
public final class RelayServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayServer.class);

  private final Server server;

  private RelayServer(Server server) {
    this.server = server;
  }

  /**
   * Binds {@code socket} and starts serving. The server binds a temporary name next to it, links
   * {@code socket} to it and removes the temporary name: the socket appears atomically, a file that
   * has taken the path is never replaced (the start fails), and netty, which deletes the path it
   * bound when the server closes, never deletes {@code socket}, which by then may be a newer
   * daemon's socket, this daemon's next one, or another file.
   */
  public static RelayServer start(
      Path socket,
      EventLoopGroup boss,
      EventLoopGroup workers,
      HandlerRegistry fallback,
      List<ServerServiceDefinition> services) {
    Path binding = bindingName(socket);
    NettyServerBuilder builder =
        relayOptions(UnixGrpc.server(binding, boss, workers), fallback, services);
    Server server;
    try {
      Files.deleteIfExists(binding); // left by a daemon killed between bind and link
      server = builder.build().start();
    } catch (IOException e) {
      throw new RelayException("cannot serve on " + socket + ": " + e.getMessage(), e);
    }
    try {
      // A link, not a rename: a rename would replace a file that took the path meanwhile (a
      // program that removed the socket and bound its own), a link fails instead.
      Files.createLink(socket, binding);
    } catch (FileAlreadyExistsException e) {
      server.shutdownNow();
      removeQuietly(binding);
      throw new RelayException(
          "cannot serve on " + socket + ": another file took the path; refusing to replace it", e);
    } catch (IOException e) {
      server.shutdownNow();
      removeQuietly(binding);
      throw new RelayException("cannot serve on " + socket + ": " + e.getMessage(), e);
    }
    removeQuietly(binding); // served all the same if it stays: netty removes it at close
    return new RelayServer(server);
  }

  private static void removeQuietly(Path binding) {
    try {
      Files.deleteIfExists(binding);
    } catch (IOException e) {
      LOG.debug("cannot remove {}: {}", binding, e.toString());
    }
  }

  /**
   * Serves the listening socket {@code fd} that systemd bound to {@code socket} and passed to this
   * process (socket activation, {@link ListenFds}). The socket file stays systemd's: closing the
   * server closes only this process's descriptor, and connections keep queueing in the socket's
   * backlog until the next daemon accepts them.
   */
  public static RelayServer startInherited(
      int fd,
      Path socket,
      EventLoopGroup boss,
      EventLoopGroup workers,
      HandlerRegistry fallback,
      List<ServerServiceDefinition> services) {
    NettyServerBuilder builder =
        relayOptions(inheritedBuilder(fd, socket, boss, workers), fallback, services);
    try {
      return new RelayServer(builder.build().start());
    } catch (IOException e) {
      throw new RelayException(
          "cannot serve on " + socket + " (fd " + fd + " from systemd): " + e.getMessage(), e);
    }
  }

  private static NettyServerBuilder inheritedBuilder(
      int fd, Path socket, EventLoopGroup boss, EventLoopGroup workers) {
    return UnixGrpc.server(socket, boss, workers)
        .channelFactory(
            () -> {
              // Already bound and listening: gRPC's bind must not reach the socket (EINVAL).
              EpollServerDomainSocketChannel channel = new EpollServerDomainSocketChannel(fd, true);
              channel.pipeline().addLast(new BoundAlready());
              return channel;
            });
  }

  /** Completes the server's bind without binding: the inherited socket is bound and listening. */
  private static final class BoundAlready extends ChannelOutboundHandlerAdapter {
    @Override
    public void bind(ChannelHandlerContext context, SocketAddress address, ChannelPromise promise) {
      promise.setSuccess();
    }
  }

  private static NettyServerBuilder relayOptions(
      NettyServerBuilder builder,
      HandlerRegistry fallback,
      List<ServerServiceDefinition> services) {
    builder
        .fallbackHandlerRegistry(fallback)
        // The relay never blocks in its handlers; serving on the transport threads saves
        // two thread hand-offs per call.
        .directExecutor()
        .maxInboundMessageSize(RuntimeChannels.MAX_MESSAGE_BYTES)
        .maxInboundMetadataSize(RuntimeChannels.MAX_METADATA_BYTES);
    services.forEach(builder::addService);
    return builder;
  }

  /**
   * The temporary name the server binds: next to {@code socket} (a rename stays in one file system)
   * and no longer than needed, since a Unix socket path has at most 107 bytes.
   */
  static Path bindingName(Path socket) {
    String byName = "." + socket.getFileName() + "~";
    String byPid = "." + ProcessHandle.current().pid() + "~";
    return socket.resolveSibling(byPid.length() < byName.length() ? byPid : byName);
  }

  /** Stops accepting calls, waits up to {@code graceSeconds} for running ones, then cancels. */
  public void stop(long graceSeconds) {
    Shutdown.gracefully(
        Shutdown.of(server), Duration.ofSeconds(graceSeconds), Duration.ofSeconds(5), () -> {});
  }

  @Override
  public void close() {
    stop(5);
  }
}
