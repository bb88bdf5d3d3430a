package io.criresmgr.proxy.relay;

import io.criresmgr.proxy.core.RawMarshaller;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.HandlerRegistry;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Resolves every method name, known to our proto or not, to a raw-bytes pass-through handler: image
 * service methods go to the image channel, everything else to the runtime channel.
 *
 * <p>Why: docs/adr/0002-raw-byte-relay.md.
 */
public final class RelayHandlerRegistry extends HandlerRegistry {
  /** Bounds the definition cache: clients can send arbitrary method names. */
  private static final int MAX_CACHED = 512;

  private final Channel runtime;
  private final Channel image;
  private final RelayListener listener;
  private final Map<String, ServerMethodDefinition<byte[], byte[]>> definitions =
      new ConcurrentHashMap<>();

  /** Relays runtime-service calls to {@code runtime} and image-service calls to {@code image}. */
  public RelayHandlerRegistry(Channel runtime, Channel image, RelayListener listener) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.image = Objects.requireNonNull(image, "image");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  @Override
  public ServerMethodDefinition<?, ?> lookupMethod(String methodName, @Nullable String authority) {
    ServerMethodDefinition<byte[], byte[]> cached = definitions.get(methodName);
    if (cached != null) {
      return cached;
    }
    ServerMethodDefinition<byte[], byte[]> created =
        ServerMethodDefinition.create(
            RawMarshaller.descriptor(methodName), new Handler(channelFor(methodName)));
    if (definitions.size() < MAX_CACHED) {
      definitions.putIfAbsent(methodName, created);
    }
    return created;
  }

  /** The image channel for any {@code *.ImageService/*} method, else the runtime channel. */
  Channel channelFor(String fullMethodName) {
    String service = MethodDescriptor.extractFullServiceName(fullMethodName);
    return service != null && service.endsWith(".ImageService") ? image : runtime;
  }

  private final class Handler implements ServerCallHandler<byte[], byte[]> {
    private final Channel channel;

    Handler(Channel channel) {
      this.channel = channel;
    }

    @Override
    public ServerCall.Listener<byte[]> startCall(
        ServerCall<byte[], byte[]> serverCall, Metadata headers) {
      MethodDescriptor<byte[], byte[]> method = serverCall.getMethodDescriptor();
      CallOptions options = CallOptions.DEFAULT.withDeadline(Context.current().getDeadline());
      ClientCall<byte[], byte[]> clientCall = channel.newCall(method, options);
      ProxyCall call =
          new ProxyCall(serverCall, clientCall, listener.callStarted(method.getFullMethodName()));
      return call.start(headers);
    }
  }
}
