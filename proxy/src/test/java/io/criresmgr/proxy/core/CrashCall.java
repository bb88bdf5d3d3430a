package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A request the crash test's workload sent to the daemon, and its reply (failed with the gRPC
 * status if the call failed).
 *
 * @param description what the request does, for the test's log
 * @param reply completes with the response or the error
 */
record CrashCall(String description, CompletableFuture<Object> reply) {
  CrashCall {
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(reply, "reply");
  }

  /** Sends a request through {@code relay} with a fresh 30 s deadline. */
  static CrashCall send(Channel relay, String description, Sender sender) {
    CompletableFuture<Object> reply = new CompletableFuture<>();
    sender.send(RuntimeServiceGrpc.newStub(relay).withDeadlineAfter(30, TimeUnit.SECONDS), reply);
    return new CrashCall(description, reply);
  }

  /** Sends one request on {@code stub}, completing {@code reply} (see {@link #completing}). */
  @FunctionalInterface
  interface Sender {
    void send(RuntimeServiceGrpc.RuntimeServiceStub stub, CompletableFuture<Object> reply);
  }

  /** An observer completing {@code reply} with the single response or the error. */
  static <T> StreamObserver<T> completing(CompletableFuture<Object> reply) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        reply.complete(value);
      }

      @Override
      public void onError(Throwable t) {
        reply.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        reply.complete("completed");
      }
    };
  }

  /** "answered", "failed: CODE" or "in flight". */
  String outcome() {
    if (!reply.isDone()) {
      return "in flight";
    }
    return reply.isCompletedExceptionally()
        ? "failed: " + reply.handle((r, e) -> Status.fromThrowable(e).getCode()).join()
        : "answered";
  }
}
