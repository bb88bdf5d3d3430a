package io.criresmgr.benchmarks;

import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.ListContainersResponse;
import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.ListPodSandboxResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A minimal, fast CRI runtime on a Unix socket: it answers {@code RuntimeService/Version} like
 * containerd, and lists no pods and no containers (the daemon lists both before it serves); nothing
 * else. It serves on its transport thread ({@code directExecutor}) so that the backend adds as
 * little as possible to what the benchmarks measure.
 */
public final class VersionBackend implements AutoCloseable {
  /** The answer to every Version call; "containerd" passes the daemon's runtime check. */
  public static final VersionResponse VERSION =
      VersionResponse.newBuilder()
          .setVersion("0.1.0")
          .setRuntimeName("containerd")
          .setRuntimeVersion("v1.7.0")
          .setRuntimeApiVersion("v1")
          .build();

  private final Server server;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;

  private VersionBackend(Server server, EventLoopGroup boss, EventLoopGroup workers) {
    this.server = server;
    this.boss = boss;
    this.workers = workers;
  }

  /** Binds {@code socket} and starts serving. */
  public static VersionBackend start(Path socket) throws IOException {
    EventLoopGroup boss = EventLoops.epoll("backend-accept", 1);
    EventLoopGroup workers = EventLoops.epoll("backend-io", 1);
    Server server =
        UnixGrpc.server(socket, boss, workers)
            .directExecutor()
            .addService(new VersionOnlyRuntime())
            .build();
    try {
      return new VersionBackend(server.start(), boss, workers);
    } catch (IOException e) {
      EventLoops.shutdown(boss);
      EventLoops.shutdown(workers);
      throw e;
    }
  }

  @Override
  public void close() {
    Shutdown.now(Duration.ofSeconds(5), Shutdown.of(server));
    EventLoops.shutdown(workers);
    EventLoops.shutdown(boss);
  }

  /** The runtime service: Version and empty lists; every other method is UNIMPLEMENTED. */
  private static final class VersionOnlyRuntime extends RuntimeServiceGrpc.RuntimeServiceImplBase {
    @Override
    public void version(VersionRequest request, StreamObserver<VersionResponse> response) {
      response.onNext(VERSION);
      response.onCompleted();
    }

    @Override
    public void listPodSandbox(
        ListPodSandboxRequest request, StreamObserver<ListPodSandboxResponse> response) {
      response.onNext(ListPodSandboxResponse.getDefaultInstance());
      response.onCompleted();
    }

    @Override
    public void listContainers(
        ListContainersRequest request, StreamObserver<ListContainersResponse> response) {
      response.onNext(ListContainersResponse.getDefaultInstance());
      response.onCompleted();
    }
  }
}
