package io.criresmgr.grpc.unix;

import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Path;

/**
 * gRPC server and channel builders for Unix sockets on epoll loops: every Unix-socket server and
 * client of the project (relay, configuration socket, simulated runtime, benchmark backends) starts
 * from one of these.
 */
public final class UnixGrpc {
  private UnixGrpc() {}

  /**
   * A server builder for {@code socket}, accepting on {@code boss} and serving on {@code workers}.
   */
  public static NettyServerBuilder server(
      Path socket, EventLoopGroup boss, EventLoopGroup workers) {
    return NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
        .channelType(EpollServerDomainSocketChannel.class)
        .bossEventLoopGroup(boss)
        .workerEventLoopGroup(workers)
        // gRPC asks for TCP keep-alive, which Unix sockets do not have (netty warns per conn.).
        .withChildOption(ChannelOption.SO_KEEPALIVE, null);
  }

  /** A plaintext channel builder for {@code socket} on {@code group}'s loops. */
  public static NettyChannelBuilder channel(Path socket, EventLoopGroup group) {
    return NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
        .eventLoopGroup(group)
        .channelType(EpollDomainSocketChannel.class)
        .usePlaintext()
        // gRPC asks for TCP keep-alive, which Unix sockets do not have (netty warns per
        // connection).
        .withOption(ChannelOption.SO_KEEPALIVE, null);
  }
}
