package io.criresmgr.agent.push;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A plaintext gRPC channel to the daemon's config socket (a Unix socket), on one epoll loop. */
final class DaemonChannel implements AutoCloseable {
  /**
   * No idle timeout: a connection that drops means the daemon went away (see {@link ConfigPusher}),
   * not that the channel went idle.
   */
  private static final long IDLE_DAYS = 30;

  private final EventLoopGroup group;
  private final ManagedChannel channel;

  private DaemonChannel(EventLoopGroup group, ManagedChannel channel) {
    this.group = group;
    this.channel = channel;
  }

  /** A channel to {@code socket}; connects on the first call. */
  static DaemonChannel open(Path socket) {
    EventLoopGroup group = EventLoops.epoll("config-push-io", 1);
    ManagedChannel channel =
        UnixGrpc.channel(socket, group)
            .idleTimeout(IDLE_DAYS, TimeUnit.DAYS)
            .directExecutor()
            .build();
    return new DaemonChannel(group, channel);
  }

  /** The channel. */
  ManagedChannel channel() {
    return channel;
  }

  @Override
  public void close() {
    Shutdown.now(Duration.ofSeconds(5), Shutdown.of(channel));
    var unused = group.shutdownGracefully(0, 1, TimeUnit.SECONDS); // its threads are daemons
  }
}
