package io.criresmgr.proxy.relay;

import com.google.protobuf.ByteString;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.core.RawMarshaller;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.HandlerRegistry;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A fake runtime on a real Unix socket that accepts any method as raw bytes, records what it
 * receives and replies with scripted bytes, status and trailers. {@code Version} answers with a
 * real {@link VersionResponse} (runtime name settable) unless scripted otherwise.
 */
public final class RecordingBackend implements AutoCloseable {
  /** What one call received. */
  public record Received(
      String method, ByteString request, Metadata headers, @Nullable Deadline deadline) {}

  /** A scripted answer: reply messages, then close with status and trailers. */
  public record Reply(List<byte[]> messages, Status status, Metadata headers, Metadata trailers) {}

  private final Path socket;
  private final EventLoopGroup group = EventLoops.epoll("backend", 1);
  private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  private final Map<String, Reply> replies = new ConcurrentHashMap<>();
  private final CountDownLatch cancelled = new CountDownLatch(1);
  private volatile String runtimeName = "containerd";
  private @Nullable RelayServer server;

  /** A backend serving {@code socket} once {@link #start} is called. */
  public RecordingBackend(Path socket) {
    this.socket = socket;
  }

  /** Starts (or restarts) serving. */
  public RecordingBackend start() {
    server = RelayServer.start(socket, group, group, new Registry(), List.of());
    return this;
  }

  /** Stops serving now and removes the socket file, as a crashed runtime would leave it gone. */
  public void stop() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
    try {
      Files.deleteIfExists(socket); // the server never replaces a file at its path
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Scripts the answer to {@code fullMethod}. A reply with no messages and OK is unusual. */
  public void script(String fullMethod, Reply reply) {
    replies.put(fullMethod, reply);
  }

  /** The runtime name {@code Version} reports. */
  public void runtimeName(String name) {
    runtimeName = name;
  }

  /** The next received call, waiting up to 5 s. */
  public Received next() throws InterruptedException {
    Received r = received.poll(5, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("backend received no call");
    }
    return r;
  }

  /** Forgets received calls (e.g. the daemon's own Version check). */
  public void clear() {
    received.clear();
  }

  /** Whether a call was cancelled by its client within {@code millis}. */
  public boolean awaitCancel(long millis) throws InterruptedException {
    return cancelled.await(millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    stop();
    EventLoops.shutdown(group);
  }

  private Reply replyFor(String method) {
    Reply scripted = replies.get(method);
    if (scripted != null) {
      return scripted;
    }
    byte[] body =
        method.endsWith("/Version")
            ? VersionResponse.newBuilder()
                .setVersion("0.1.0")
                .setRuntimeName(runtimeName)
                .setRuntimeVersion("1.6.20")
                .setRuntimeApiVersion("v1")
                .build()
                .toByteArray()
            : new byte[0];
    return new Reply(List.of(body), Status.OK, new Metadata(), new Metadata());
  }

  private final class Registry extends HandlerRegistry {
    @Override
    public ServerMethodDefinition<?, ?> lookupMethod(String method, @Nullable String authority) {
      return ServerMethodDefinition.create(RawMarshaller.descriptor(method), new Handler());
    }
  }

  private final class Handler implements ServerCallHandler<byte[], byte[]> {
    @Override
    public ServerCall.Listener<byte[]> startCall(
        ServerCall<byte[], byte[]> call, Metadata headers) {
      call.request(1);
      String method = call.getMethodDescriptor().getFullMethodName();
      Deadline deadline = Context.current().getDeadline();
      return new ServerCall.Listener<>() {
        @Override
        public void onMessage(byte[] message) {
          received.add(new Received(method, ByteString.copyFrom(message), headers, deadline));
          Reply reply = replyFor(method);
          if (reply.messages().isEmpty() && reply.status().isOk()) {
            return; // hang until cancelled: used by the cancellation test
          }
          call.sendHeaders(reply.headers());
          reply.messages().forEach(call::sendMessage);
          call.close(reply.status(), reply.trailers());
        }

        @Override
        public void onCancel() {
          cancelled.countDown();
        }
      };
    }
  }
}
