package io.criresmgr.proxy.pipeline;

import io.grpc.MethodDescriptor;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The two shapes every intercepted request takes, named once (why two steps:
 * docs/adr/0001-two-step-serialized-pipeline.md):
 *
 * <ul>
 *   <li>{@link #decideCallSettle}: decide in the pipeline, call the runtime with what was decided,
 *       settle the outcome in the pipeline (RunPodSandbox, CreateContainer, StartContainer,
 *       UpdateContainerResources);
 *   <li>{@link #callRecord}: call the runtime, then record its outcome in the pipeline
 *       (StopPodSandbox, RemovePodSandbox, StopContainer, RemoveContainer).
 * </ul>
 *
 * <p>Every step runs with the request's log context ({@link CallScope#logged}), and every runtime
 * call counts towards the request's runtime time.
 */
final class RequestFlow {
  private final Pipeline pipeline;
  private final RuntimeClient runtime;

  /** Requests through {@code pipeline}, calling {@code runtime}. */
  RequestFlow(Pipeline pipeline, RuntimeClient runtime) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /**
   * What a decision hands to the runtime call.
   *
   * @param <Q> the request type
   */
  interface Decision<Q> {
    /** The request to send: kubelet's, or rewritten with the decision. */
    Q request();

    /**
     * Completes when the runtime may be called: the updates of other containers the decision
     * implies are sent, checks that need the runtime are made. A failure goes to the settle step
     * instead of the runtime. At once by default.
     */
    default CompletableFuture<?> ready() {
      return CompletableFuture.completedFuture(null);
    }
  }

  /**
   * The settle step: commits the decision with the runtime's reply, or rolls it back after the
   * runtime's (or the readiness') failure and rethrows it.
   */
  interface Settle<D, R> {
    R settle(Section s, D decision, @Nullable R reply, @Nullable Throwable error);
  }

  /**
   * Decides in the pipeline; a null decision (the cache does not manage what the request names)
   * passes {@code request} through to the runtime. Otherwise the decided request goes to the
   * runtime once the decision is ready, and {@code settle} sees the outcome in the pipeline.
   */
  <Q, R, D extends Decision<Q>> CompletableFuture<R> decideCallSettle(
      CallScope scope,
      MethodDescriptor<Q, R> method,
      Q request,
      Function<Section, @Nullable D> decide,
      Settle<D, R> settle) {
    return this.<@Nullable D>step(scope, decide)
        .thenCompose(
            decision -> {
              if (decision == null) {
                return call(scope, method, request);
              }
              return decision
                  .ready()
                  .thenCompose(ready -> call(scope, method, decision.request()))
                  .handle(
                      (reply, error) -> step(scope, s -> settle.settle(s, decision, reply, error)))
                  .thenCompose(Function.identity());
            });
  }

  /**
   * Calls the runtime, then runs {@code record} in the pipeline and answers with the reply. A
   * failure leaves the cache as it was, except NOT_FOUND when {@code notFoundIsDone} (what is to be
   * removed is gone already): then it is recorded, and the failure still answered.
   */
  <Q, R> CompletableFuture<R> callRecord(
      CallScope scope,
      MethodDescriptor<Q, R> method,
      Q request,
      boolean notFoundIsDone,
      Consumer<Section> record) {
    return call(scope, method, request)
        .handle(
            (reply, error) -> {
              if (error != null && !(notFoundIsDone && ContainerRequests.isNotFound(error))) {
                return CompletableFuture.<R>failedFuture(Errors.unwrap(error));
              }
              return step(
                  scope,
                  s -> {
                    record.accept(s);
                    if (error != null) {
                      throw Errors.rethrow(error);
                    }
                    return Objects.requireNonNull(reply);
                  });
            })
        .thenCompose(Function.identity());
  }

  /** Calls the runtime within the client's deadline, counting the time as runtime time. */
  <Q, R> CompletableFuture<R> call(CallScope scope, MethodDescriptor<Q, R> method, Q request) {
    return scope.timed(runtime.call(method, request, scope.deadline()));
  }

  /** Runs {@code step} in the pipeline with the request's log context. */
  <T> CompletableFuture<T> step(CallScope scope, Function<Section, T> step) {
    return pipeline.run(s -> scope.logged(() -> step.apply(s)));
  }
}
