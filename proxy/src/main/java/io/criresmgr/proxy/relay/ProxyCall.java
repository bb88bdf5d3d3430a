package io.criresmgr.proxy.relay;

import io.criresmgr.proxy.relay.RelayListener.CallTrace;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * One relayed call: the client's {@link ServerCall} paired with a {@link ClientCall} to the
 * runtime, with flow control in both directions (after grpc-java's {@code GrpcProxy} example).
 *
 * <p>{@code ServerCall} and {@code ClientCall} are not thread-safe and their listeners run on
 * different transport threads, so every call into either one happens under {@code this}' lock.
 */
final class ProxyCall {
  private final ServerCall<byte[], byte[]> serverCall;
  private final ClientCall<byte[], byte[]> clientCall;
  private final CallTrace trace;
  private final long startNanos = System.nanoTime();
  private long runtimeStartNanos;
  private boolean requestPending;
  private boolean responsePending;

  ProxyCall(
      ServerCall<byte[], byte[]> serverCall,
      ClientCall<byte[], byte[]> clientCall,
      CallTrace trace) {
    this.serverCall = serverCall;
    this.clientCall = clientCall;
    this.trace = trace;
  }

  /** Starts the runtime call with the client's metadata; returns the client-side listener. */
  synchronized ServerCall.Listener<byte[]> start(Metadata headers) {
    runtimeStartNanos = System.nanoTime();
    clientCall.start(new RuntimeSide(), headers);
    serverCall.request(1);
    clientCall.request(1);
    return new ClientSide();
  }

  private synchronized void forwardRequest(byte[] message) {
    trace.request(message);
    clientCall.sendMessage(message);
    if (clientCall.isReady()) {
      serverCall.request(1);
    } else {
      requestPending = true;
    }
  }

  private synchronized void forwardResponse(byte[] message) {
    trace.response(message);
    serverCall.sendMessage(message);
    if (serverCall.isReady()) {
      clientCall.request(1);
    } else {
      responsePending = true;
    }
  }

  private synchronized void runtimeReady() {
    if (requestPending) {
      requestPending = false;
      serverCall.request(1);
    }
  }

  private synchronized void clientReady() {
    if (responsePending) {
      responsePending = false;
      clientCall.request(1);
    }
  }

  private synchronized void close(Status status, Metadata trailers) {
    long now = System.nanoTime();
    trace.closed(status, now - startNanos, now - runtimeStartNanos);
    try {
      serverCall.close(status, trailers);
    } catch (IllegalStateException alreadyClosed) {
      // The client cancelled first; the runtime's CANCELLED close has no one left to reach.
    }
  }

  /** Events from the client (kubelet), forwarded to the runtime. */
  private final class ClientSide extends ServerCall.Listener<byte[]> {
    @Override
    public void onMessage(byte[] message) {
      forwardRequest(message);
    }

    @Override
    public void onHalfClose() {
      synchronized (ProxyCall.this) {
        clientCall.halfClose();
      }
    }

    @Override
    public void onCancel() {
      synchronized (ProxyCall.this) {
        clientCall.cancel("client cancelled the call", null);
      }
    }

    @Override
    public void onReady() {
      clientReady();
    }
  }

  /** Events from the runtime, forwarded to the client. */
  private final class RuntimeSide extends ClientCall.Listener<byte[]> {
    @Override
    public void onHeaders(Metadata headers) {
      synchronized (ProxyCall.this) {
        serverCall.sendHeaders(headers);
      }
    }

    @Override
    public void onMessage(byte[] message) {
      forwardResponse(message);
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      close(status, trailers);
    }

    @Override
    public void onReady() {
      runtimeReady();
    }
  }
}
