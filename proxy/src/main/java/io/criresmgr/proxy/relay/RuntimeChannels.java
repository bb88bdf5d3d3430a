package io.criresmgr.proxy.relay;

import io.criresmgr.grpc.unix.Shutdown;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Channels to the runtime and image services: one channel when both use the same socket. They
 * reconnect by themselves (see {@link ReconnectWatcher}).
 */
public final class RuntimeChannels implements AutoCloseable {
  /**
   * Largest message relayed: four times kubelet's own 16 MiB limit, so the relay is never the
   * limit, while a broken peer cannot make the daemon buffer without bound.
   */
  public static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  /** Largest header or trailer block relayed (gRPC's default of 8 KiB is tight for details). */
  public static final int MAX_METADATA_BYTES = 1024 * 1024;

  private static final Duration RECONNECT_PERIOD = Duration.ofMillis(200);

  private final ManagedChannel runtime;
  private final ManagedChannel image;
  private final ScheduledExecutorService scheduler;

  private RuntimeChannels(
      ManagedChannel runtime, ManagedChannel image, ScheduledExecutorService scheduler) {
    this.runtime = runtime;
    this.image = image;
    this.scheduler = scheduler;
  }

  /** Opens channels to the given sockets on {@code group}'s epoll loops. */
  public static RuntimeChannels open(Path runtimeSocket, Path imageSocket, EventLoopGroup group) {
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            new DefaultThreadFactory("runtime-reconnect", true));
    ManagedChannel runtime = channel(runtimeSocket, group);
    ManagedChannel image =
        imageSocket.equals(runtimeSocket) ? runtime : channel(imageSocket, group);
    new ReconnectWatcher(runtime, "runtime " + runtimeSocket, scheduler, RECONNECT_PERIOD).start();
    if (image != runtime) {
      new ReconnectWatcher(image, "image " + imageSocket, scheduler, RECONNECT_PERIOD).start();
    }
    return new RuntimeChannels(runtime, image, scheduler);
  }

  /** A plaintext channel to a Unix socket; callbacks run on the transport threads. */
  public static ManagedChannel channel(Path socket, EventLoopGroup group) {
    return UnixGrpc.channel(socket, group)
        .directExecutor()
        .maxInboundMessageSize(MAX_MESSAGE_BYTES)
        .maxInboundMetadataSize(MAX_METADATA_BYTES)
        .build();
  }

  /** The runtime service channel. */
  public ManagedChannel runtime() {
    return runtime;
  }

  /** The image service channel (the runtime channel if the sockets are the same). */
  public ManagedChannel image() {
    return image;
  }

  @Override
  public void close() {
    Shutdown.now(
        Duration.ofSeconds(5), Shutdown.of(runtime), Shutdown.of(image), Shutdown.of(scheduler));
  }
}
