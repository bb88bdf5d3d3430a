package io.criresmgr.proxy.relay;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process runtime that answers only {@code Version}: it ignores the first {@code silent}
 * calls (their deadlines end them), then fails with {@code failure} or answers as {@code name}
 * 1.7.24.
 */
final class VersionRuntime implements AutoCloseable {
  private final AtomicInteger calls = new AtomicInteger();
  private final Server server;
  private final ManagedChannel channel;

  private VersionRuntime(String name, int silent, Status failure) throws IOException {
    String serverName = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(serverName)
            .addService(
                new RuntimeServiceGrpc.RuntimeServiceImplBase() {
                  @Override
                  public void version(
                      VersionRequest request, StreamObserver<VersionResponse> reply) {
                    if (calls.incrementAndGet() <= silent) {
                      return;
                    }
                    if (!failure.isOk()) {
                      reply.onError(failure.asRuntimeException());
                      return;
                    }
                    reply.onNext(
                        VersionResponse.newBuilder()
                            .setRuntimeName(name)
                            .setRuntimeVersion("1.7.24")
                            .setRuntimeApiVersion("v1")
                            .build());
                    reply.onCompleted();
                  }
                })
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(serverName).build();
  }

  static VersionRuntime start(String name, int silent, Status failure) throws IOException {
    return new VersionRuntime(name, silent, failure);
  }

  ManagedChannel channel() {
    return channel;
  }

  /** The Version calls received so far. */
  int calls() {
    return calls.get();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    server.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
