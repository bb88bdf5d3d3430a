package io.criresmgr.benchmarks;

import com.google.protobuf.Message;
import io.criresmgr.api.runtime.v1.CreateContainerResponse;
import io.criresmgr.api.runtime.v1.RunPodSandboxResponse;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A runtime channel that answers every unary call at once, on the caller's thread, with no I/O: so
 * that what remains of an intercepted call is the pipeline's own work. RunPodSandbox and
 * CreateContainer get fresh ids; every other method gets its empty response.
 */
final class InstantRuntime extends Channel {
  private static final String RUN_POD_SANDBOX =
      RuntimeServiceGrpc.getRunPodSandboxMethod().getFullMethodName();
  private static final String CREATE_CONTAINER =
      RuntimeServiceGrpc.getCreateContainerMethod().getFullMethodName();
  private static final byte[] NO_BYTES = new byte[0];

  private final AtomicLong ids = new AtomicLong();

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    return new InstantCall<>(method);
  }

  @Override
  public String authority() {
    return "instant-runtime";
  }

  /** The reply to {@code method}, built through its own marshaller (no unchecked casts). */
  private <R> R reply(MethodDescriptor<?, R> method) {
    // By the full name, a field: the bare name is a new substring per call, garbage on the
    // calling thread that a real transport does not make (docs/benchmarks.md, "Issue 20:
    // re-assigned containers, fourth round").
    String name = method.getFullMethodName();
    Message reply =
        name.equals(RUN_POD_SANDBOX)
            ? RunPodSandboxResponse.newBuilder().setPodSandboxId(nextId("pod")).build()
            : name.equals(CREATE_CONTAINER)
                ? CreateContainerResponse.newBuilder().setContainerId(nextId("ctr")).build()
                : null;
    return method.parseResponse(
        new KnownLengthStream(reply == null ? NO_BYTES : reply.toByteArray()));
  }

  /**
   * A reply's bytes as the Netty transport hands them to the marshaller: of known length, so that
   * grpc-java's protobuf marshaller takes its production path (an empty reply is the default
   * instance, others are read through a per-thread buffer) instead of a {@code CodedInputStream}
   * with a 4 KB buffer per reply (docs/benchmarks.md, "Issue 20: re-assigned containers").
   */
  private static final class KnownLengthStream extends ByteArrayInputStream implements KnownLength {
    KnownLengthStream(byte[] bytes) {
      super(bytes);
    }
  }

  private String nextId(String kind) {
    return kind + "-" + ids.incrementAndGet();
  }

  /** Completes in {@link #halfClose()}: headers, the reply, status OK. */
  private final class InstantCall<Q, R> extends ClientCall<Q, R> {
    private final MethodDescriptor<Q, R> method;
    private @Nullable Listener<R> listener;

    InstantCall(MethodDescriptor<Q, R> method) {
      this.method = method;
    }

    @Override
    public void start(Listener<R> responseListener, Metadata headers) {
      listener = responseListener;
    }

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(@Nullable String message, @Nullable Throwable cause) {}

    @Override
    public void sendMessage(Q message) {}

    @Override
    public void halfClose() {
      Listener<R> l = Objects.requireNonNull(listener, "not started");
      l.onHeaders(new Metadata());
      l.onMessage(reply(method));
      l.onClose(Status.OK, new Metadata());
    }
  }
}
