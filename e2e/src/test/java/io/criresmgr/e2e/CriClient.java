package io.criresmgr.e2e;

import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A CRI client on a unix socket, the way crictl talks to a runtime or to the proxy. */
final class CriClient implements AutoCloseable {
  private static final long DEADLINE_SECONDS = 60;

  private final Path socket;
  private final ManagedChannel channel;

  /** Opens a channel to {@code socket} (connects lazily, on the first call). */
  CriClient(Path socket) {
    this.socket = socket;
    // grpc-netty registers the "unix" scheme and uses epoll domain sockets for it
    this.channel =
        Grpc.newChannelBuilder("unix://" + socket, InsecureChannelCredentials.create()).build();
  }

  /** The socket this client talks to. */
  Path socket() {
    return socket;
  }

  /** The runtime service, with a fresh deadline for one call. */
  RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime() {
    return RuntimeServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  /** The image service, with a fresh deadline for one call. */
  ImageServiceGrpc.ImageServiceBlockingStub images() {
    return ImageServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
