package io.criresmgr.proxy.core;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.MethodDescriptor;
import io.grpc.stub.ClientCalls;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Typed unary calls to the runtime for intercepted requests and the pipeline's own updates. The
 * caller's deadline is passed on; calls the daemon makes itself get {@link #OWN_DEADLINE_SECONDS}.
 */
public final class RuntimeClient {
  /** Deadline of calls the daemon makes on its own behalf (updates, start-up listing). */
  public static final long OWN_DEADLINE_SECONDS = 30;

  private final Channel channel;

  /** Calls go to {@code channel}. */
  public RuntimeClient(Channel channel) {
    this.channel = Objects.requireNonNull(channel, "channel");
  }

  /** Calls {@code method} with the current gRPC context's deadline, if any. */
  public <Q, R> CompletableFuture<R> call(MethodDescriptor<Q, R> method, Q request) {
    return call(method, request, Context.current().getDeadline());
  }

  /** Calls {@code method} on the daemon's own behalf, with the daemon's deadline. */
  public <Q, R> CompletableFuture<R> callOwn(MethodDescriptor<Q, R> method, Q request) {
    return call(method, request, Deadline.after(OWN_DEADLINE_SECONDS, TimeUnit.SECONDS));
  }

  /** Calls {@code method} with {@code deadline} (none if null). */
  public <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method, Q request, @Nullable Deadline deadline) {
    CallOptions options = CallOptions.DEFAULT.withDeadline(deadline);
    ListenableFuture<R> future =
        ClientCalls.futureUnaryCall(channel.newCall(method, options), request);
    CompletableFuture<R> result = new CompletableFuture<>();
    Futures.addCallback(
        future,
        new FutureCallback<R>() {
          @Override
          public void onSuccess(@Nullable R value) {
            result.complete(value);
          }

          @Override
          public void onFailure(Throwable t) {
            result.completeExceptionally(t);
          }
        },
        MoreExecutors.directExecutor());
    return result;
  }
}
