package io.criresmgr.proxy.core;

import io.grpc.MethodDescriptor;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two shapes every intercepted request takes, named once (why two steps:
 * docs/adr/0001-two-step-serialized-pipeline.md):
 *
 * <ul>
 *   <li>{@link #decideCallSettle}: decide in the pipeline, call the runtime with what was decided,
 *       settle the outcome in the pipeline (RunPodSandbox, StartContainer,
 *       UpdateContainerResources);
 *   <li>{@link #decideCallCommit}: the same, when the answer is the runtime's own outcome whatever
 *       the settle step does, so the answer need not wait for that step (CreateContainer);
 *   <li>{@link #callRecord}: call the runtime, then record its outcome in the pipeline
 *       (StopPodSandbox, RemovePodSandbox, StopContainer, RemoveContainer).
 * </ul>
 *
 * <p>Why CreateContainer does not wait for its commit:
 * docs/adr/0010-steps-inline-and-answers-before-commit.md. Every step runs with the request's log
 * context ({@link CallScope#logged}), and every runtime call counts towards the request's runtime
 * time.
 */
final class RequestFlow {
  private static final Logger LOG = LoggerFactory.getLogger(RequestFlow.class);

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

    /**
     * Work the answer must wait for but the request need not: run once the request is on its way,
     * on the thread that sent it, or in a step when that is a transport thread (which must not
     * block). Its failure is logged, never answered. None by default.
     */
    default @Nullable Runnable whileCalled() {
      return null;
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
    return decideAndCall(
        scope,
        method,
        request,
        decide,
        (decision, called) ->
            handleCompose(
                called,
                (reply, error) -> step(scope, s -> settle.settle(s, decision, reply, error))));
  }

  /** Like {@code handle}, with the future {@code fn} returns as the outcome. */
  // The nested future lives only from handle to thenCompose, which flattens it: none is ignored.
  @SuppressWarnings("FutureReturnValueIgnored")
  private static <T, R> CompletableFuture<R> handleCompose(
      CompletableFuture<T> future,
      BiFunction<? super T, @Nullable Throwable, CompletableFuture<R>> fn) {
    return future.handle(fn).thenCompose(Function.identity());
  }

  /**
   * The settle step of {@link #decideCallCommit}: commits the decision with the runtime's reply, or
   * rolls it back after the runtime's (or the readiness') failure.
   */
  interface Commit<D, R> {
    void commit(Section s, D decision, @Nullable R reply, @Nullable Throwable error);
  }

  /**
   * As {@link #decideCallSettle}, but the runtime's outcome (its reply or its failure) is answered
   * from the thread that received it as soon as {@code commit} is submitted, without waiting for
   * the step: one thread hand-off less on the way back. Steps submitted later, among them those of
   * the client's next request, still run after the commit. A commit that fails is logged; the
   * client has its answer already.
   */
  <Q, R, D extends Decision<Q>> CompletableFuture<R> decideCallCommit(
      CallScope scope,
      MethodDescriptor<Q, R> method,
      Q request,
      Function<Section, @Nullable D> decide,
      Commit<D, R> commit) {
    return decideAndCall(
        scope,
        method,
        request,
        decide,
        (decision, called) ->
            called.whenComplete(
                (reply, error) ->
                    submitCommit(scope, s -> commit.commit(s, decision, reply, error))));
  }

  /**
   * Decides in the pipeline; a null decision passes {@code request} through to the runtime.
   * Otherwise the decided request goes to the runtime once the decision is ready, and {@code
   * outcome} gets the decision and that call.
   */
  private <Q, R, D extends Decision<Q>> CompletableFuture<R> decideAndCall(
      CallScope scope,
      MethodDescriptor<Q, R> method,
      Q request,
      Function<Section, @Nullable D> decide,
      BiFunction<D, CompletableFuture<R>, CompletableFuture<R>> outcome) {
    return this.<@Nullable D>step(scope, decide)
        .thenCompose(
            decision -> {
              if (decision == null) {
                return call(scope, method, request);
              }
              return outcome.apply(
                  decision,
                  decision
                      .ready()
                      .thenCompose(ready -> callThen(scope, method, decision.request(), decision)));
            });
  }

  /**
   * Calls the runtime, then runs the decision's {@link Decision#whileCalled} work: the outcome
   * completes only when both are done. When this thread may block (it is not a transport thread),
   * the work runs here before the outcome is returned, so the outcome cannot be seen before it
   * (docs/adr/0015-created-containers-file-written-while-the-runtime-creates.md).
   */
  private <Q, R> CompletableFuture<R> callThen(
      CallScope scope, MethodDescriptor<Q, R> method, Q request, Decision<Q> decision) {
    CompletableFuture<R> called = call(scope, method, request);
    Runnable work = decision.whileCalled();
    if (work == null) {
      return called;
    }
    if (pipeline.mayRunInline(Thread.currentThread())) {
      runLogged(scope, work);
      return called;
    }
    CompletableFuture<Boolean> done =
        step(
            scope,
            s -> {
              runLogged(scope, work);
              return true;
            });
    return handleCompose(done, (d, e) -> called);
  }

  private static void runLogged(CallScope scope, Runnable work) {
    scope.logged(
        () -> {
          try {
            work.run();
          } catch (RuntimeException e) {
            LOG.error("work done while the runtime was called failed", e);
          }
          return null;
        });
  }

  private void submitCommit(CallScope scope, Consumer<Section> commit) {
    var unused = // failures are logged here
        step(
                scope,
                s -> {
                  commit.accept(s);
                  return true;
                })
            .whenComplete(
                (done, error) -> {
                  if (error != null) {
                    scope.logged(
                        () -> {
                          LOG.error(
                              "committing the outcome of the runtime call failed",
                              Errors.unwrap(error));
                          return null;
                        });
                  }
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
    return handleCompose(
        call(scope, method, request),
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
        });
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
