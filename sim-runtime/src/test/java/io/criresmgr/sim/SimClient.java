package io.criresmgr.sim;

import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A real gRPC client over a Unix socket, as kubelet or crictl would connect. */
final class SimClient implements AutoCloseable {
  final RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;
  final RuntimeServiceGrpc.RuntimeServiceStub runtimeAsync;
  final ImageServiceGrpc.ImageServiceBlockingStub images;
  private final EventLoopGroup group = EventLoops.epoll("sim-client", 1);
  private final ManagedChannel channel;

  SimClient(Path socket) {
    channel = UnixGrpc.channel(socket, group).directExecutor().build();
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
    EventLoops.shutdown(group);
  }
}
