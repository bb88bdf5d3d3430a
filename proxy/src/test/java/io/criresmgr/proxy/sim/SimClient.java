package io.criresmgr.proxy.sim;

import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real gRPC client over a Unix socket, as kubelet or crictl would connect. */
final class SimClient implements AutoCloseable {
  final RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;
  final RuntimeServiceGrpc.RuntimeServiceStub runtimeAsync;
  final ImageServiceGrpc.ImageServiceBlockingStub images;
  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
  private final ManagedChannel channel;

  SimClient(Path socket) {
    channel =
        NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
            .channelType(EpollDomainSocketChannel.class)
            .eventLoopGroup(group)
            .withOption(ChannelOption.SO_KEEPALIVE, null)
            .usePlaintext()
            .build();
    runtime = RuntimeServiceGrpc.newBlockingStub(channel).withWaitForReady();
    runtimeAsync = RuntimeServiceGrpc.newStub(channel);
    images = ImageServiceGrpc.newBlockingStub(channel).withWaitForReady();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
