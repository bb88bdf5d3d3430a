package io.criresmgr.proxy.relay;

import com.google.protobuf.MessageLite;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.proxy.core.CallScope;
import io.criresmgr.proxy.core.ListRequests;
import io.criresmgr.proxy.core.Refusals;
import io.criresmgr.proxy.core.Requests;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The intercepted RuntimeService methods as a service definition for the relay server, handled by
 * the core's {@link Requests}; every other method stays on the raw relay. Handlers run on transport
 * threads and only start asynchronous work. The runtime's own status and trailers reach the client
 * untouched; the resource manager's refusals become statuses naming the reason ({@link Refusals}).
 */
public final class InterceptedService {
  private final RelayListener listener;
  private final ServerServiceDefinition.Builder builder =
      ServerServiceDefinition.builder(RuntimeServiceGrpc.SERVICE_NAME);

  private InterceptedService(RelayListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** The definition of the intercepted methods, reporting calls to {@code listener}. */
  public static ServerServiceDefinition definition(Requests requests, RelayListener listener) {
    InterceptedService s = new InterceptedService(listener);
    s.add(RuntimeServiceGrpc.getRunPodSandboxMethod(), requests.pods()::run);
    s.add(RuntimeServiceGrpc.getStopPodSandboxMethod(), requests.pods()::stop);
    s.add(RuntimeServiceGrpc.getRemovePodSandboxMethod(), requests.pods()::remove);
    s.add(RuntimeServiceGrpc.getCreateContainerMethod(), requests.create()::create);
    s.add(RuntimeServiceGrpc.getStartContainerMethod(), requests.containers()::start);
    s.add(RuntimeServiceGrpc.getStopContainerMethod(), requests.containers()::stop);
    s.add(RuntimeServiceGrpc.getRemoveContainerMethod(), requests.containers()::remove);
    s.add(RuntimeServiceGrpc.getUpdateContainerResourcesMethod(), requests.update()::update);
    s.add(ListRequests.METHOD, requests::listContainers, Function.identity());
    return s.builder.build();
  }

  private <Q extends MessageLite, R extends MessageLite> void add(
      MethodDescriptor<Q, R> method, BiFunction<Q, CallScope, CompletableFuture<R>> handler) {
    add(method, handler, MessageLite::toByteArray);
  }

  /** Adds {@code method}, whose replies are {@code encoded} for the listener. */
  private <Q extends MessageLite, R> void add(
      MethodDescriptor<Q, R> method,
      BiFunction<Q, CallScope, CompletableFuture<R>> handler,
      Function<R, byte[]> encoded) {
    builder.addMethod(
        method,
        ServerCalls.asyncUnaryCall(
            (request, observer) -> handle(method, handler, encoded, request, observer)));
  }

  private <Q extends MessageLite, R> void handle(
      MethodDescriptor<Q, R> method,
      BiFunction<Q, CallScope, CompletableFuture<R>> handler,
      Function<R, byte[]> encoded,
      Q request,
      StreamObserver<R> observer) {
    long start = System.nanoTime();
    RelayListener.CallTrace trace = listener.callStarted(method.getFullMethodName(), true);
    // Encoded only for a trace that reads messages (the dump): the metrics do not.
    boolean messages = trace.observesMessages();
    if (messages) {
      trace.request(request.toByteArray());
    }
    CallScope scope = CallScope.current(method.getBareMethodName(), request);
    CompletableFuture<R> reply =
        scope.logged(
            () -> {
              try {
                return handler.apply(request, scope);
              } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
              }
            });
    var unused = // the callback answers kubelet, the reply's outcome is handled there
        reply.whenComplete(
            (response, error) -> {
              if (error == null) {
                if (messages) {
                  trace.response(encoded.apply(response));
                }
                trace.closed(Status.OK, System.nanoTime() - start, scope.runtimeNanos());
                observer.onNext(response);
                observer.onCompleted();
                return;
              }
              Throwable failure =
                  scope.logged(() -> Refusals.error(method.getBareMethodName(), error));
              trace.closed(
                  Status.fromThrowable(failure), System.nanoTime() - start, scope.runtimeNanos());
              observer.onError(failure);
            });
  }
}
