package io.criresmgr.proxy.relay;

import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.core.RawMarshaller;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** A client sending raw bytes to any method over a Unix socket, capturing headers and trailers. */
public final class RawClient implements AutoCloseable {
  private final EventLoopGroup group = EventLoops.epoll("client", 1);
  private final ManagedChannel channel;

  /** Response headers of the last call. */
  public final AtomicReference<Metadata> headers = new AtomicReference<>();

  /** Trailers of the last call. */
  public final AtomicReference<Metadata> trailers = new AtomicReference<>();

  /** Connects to {@code socket}. */
  public RawClient(Path socket) {
    this.channel = RuntimeChannels.channel(socket, group);
  }

  /** The underlying channel, for generated stubs. */
  public ManagedChannel channel() {
    return channel;
  }

  /** A unary call with extra request metadata. */
  public byte[] unary(String method, byte[] request, Metadata extra, long timeoutMillis) {
    return ClientCalls.blockingUnaryCall(
        intercepted(extra),
        RawMarshaller.descriptor(method),
        CallOptions.DEFAULT.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS),
        request);
  }

  /** A server-streaming call collecting every reply. */
  public List<byte[]> stream(String method, byte[] request) {
    Iterator<byte[]> it =
        ClientCalls.blockingServerStreamingCall(
            intercepted(new Metadata()),
            RawMarshaller.descriptor(method),
            CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
            request);
    List<byte[]> replies = new ArrayList<>();
    it.forEachRemaining(replies::add);
    return replies;
  }

  private Channel intercepted(Metadata extra) {
    headers.set(null);
    trailers.set(null);
    return ClientInterceptors.intercept(
        channel,
        MetadataUtils.newAttachHeadersInterceptor(extra),
        MetadataUtils.newCaptureMetadataInterceptor(headers, trailers));
  }

  @Override
  public void close() {
    try {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    EventLoops.shutdown(group);
  }
}
