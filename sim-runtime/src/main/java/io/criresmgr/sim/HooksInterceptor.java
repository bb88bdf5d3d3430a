package io.criresmgr.sim;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Applies {@link SimHooks} (recording, latency, injected failures) to every call. */
final class HooksInterceptor implements ServerInterceptor {
  private final SimHooks hooks;

  HooksInterceptor(SimHooks hooks) {
    this.hooks = Objects.requireNonNull(hooks, "hooks");
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    String method =
        Objects.requireNonNullElse(
            call.getMethodDescriptor().getBareMethodName(),
            call.getMethodDescriptor().getFullMethodName());
    hooks.recordCall(method);
    return new HookedListener<>(hooks, method, call, next.startCall(call, headers));
  }

  /**
   * Records the request; at half-close waits the latency, then fails the call or hands it to the
   * service. The lock keeps the delayed half-close and the transport's callbacks serial.
   */
  private static final class HookedListener<ReqT, RespT> extends ServerCall.Listener<ReqT> {
    private final SimHooks hooks;
    private final String method;
    private final ServerCall<ReqT, RespT> call;
    private final ServerCall.Listener<ReqT> delegate;
    private final Object lock = new Object();
    private boolean cancelled;

    HookedListener(
        SimHooks hooks,
        String method,
        ServerCall<ReqT, RespT> call,
        ServerCall.Listener<ReqT> delegate) {
      this.hooks = hooks;
      this.method = method;
      this.call = call;
      this.delegate = delegate;
    }

    @Override
    public void onMessage(ReqT message) {
      hooks.recordRequest(method, message);
      synchronized (lock) {
        delegate.onMessage(message);
      }
    }

    @Override
    public void onHalfClose() {
      Optional<SimHooks.Failure> failure = hooks.takeFailure(method);
      Duration latency = hooks.latencyFor(method);
      Context context = Context.current();
      Runnable proceed = context.wrap(() -> proceed(context, failure));
      if (latency.isZero()) {
        proceed.run();
      } else {
        // a failure is the call's own: proceed completes or cancels it
        Future<?> unused =
            hooks.scheduler().schedule(proceed, latency.toNanos(), TimeUnit.NANOSECONDS);
      }
    }

    /**
     * Runs the call unless it was cancelled meanwhile. The call's context is checked too: a
     * transport may end a call whose deadline expired without reporting {@link #onCancel()}.
     */
    private void proceed(Context context, Optional<SimHooks.Failure> failure) {
      synchronized (lock) {
        if (context.isCancelled()) {
          markCancelled();
        }
        if (cancelled) {
          return;
        }
        if (failure.isPresent()) {
          call.close(failure.get().status(), failure.get().trailersCopy());
        } else {
          delegate.onHalfClose();
        }
      }
    }

    @Override
    public void onCancel() {
      synchronized (lock) {
        markCancelled();
        delegate.onCancel();
      }
    }

    private void markCancelled() {
      if (!cancelled) {
        cancelled = true;
        hooks.recordCancel(method);
      }
    }

    @Override
    public void onComplete() {
      synchronized (lock) {
        delegate.onComplete();
      }
    }

    @Override
    public void onReady() {
      synchronized (lock) {
        delegate.onReady();
      }
    }
  }
}
