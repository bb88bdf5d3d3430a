package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.CacheSnapshot;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.controllers.ControllerSet;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.NoDecisions;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where and in which order {@link Pipeline} runs steps: inline on an idle pipeline, queued on a
 * busy one, never inline on a netty event loop, one at a time and in submission order; a
 * CreateContainer-shaped request answers without waiting for its commit step.
 */
class PipelineTest {
  @TempDir Path dir;

  private Pipeline pipeline;
  private EventLoopGroup loop;

  @BeforeEach
  void start() {
    Section section =
        new Section(
            new NodeCache(),
            new ActivePolicy("none", new NoDecisions()),
            new ControllerSet(List.of()));
    pipeline = new Pipeline(section, new CacheSaver(new CacheFile(dir)), EventLoops::madeByNetty);
    loop = EventLoops.epoll("pipeline-test-loop", 1);
  }

  @AfterEach
  void stop() {
    pipeline.close();
    EventLoops.shutdown(loop);
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  /** Submits {@code step} from the event loop; the future of the step. */
  private <T> CompletableFuture<T> fromLoop(Function<Section, T> step) throws Exception {
    AtomicReference<CompletableFuture<T>> submitted = new AtomicReference<>();
    loop.submit(() -> submitted.set(pipeline.run(step))).get(10, TimeUnit.SECONDS);
    return submitted.get();
  }

  /** Occupies the pipeline with a step on its own thread until {@code release} opens. */
  private CompletableFuture<String> occupy(CountDownLatch release) throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CompletableFuture<String> busy =
        fromLoop(
            s -> {
              entered.countDown();
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return Thread.currentThread().getName();
            });
    assertTrue(entered.await(10, TimeUnit.SECONDS), "the occupying step started");
    return busy;
  }

  @Test
  void idlePipelineRunsAStepOnTheCallingThread() throws Exception {
    Thread caller = Thread.currentThread();
    CompletableFuture<Thread> ran = pipeline.run(s -> Thread.currentThread());
    assertTrue(ran.isDone(), "an inline step has ended when run returns");
    assertSame(caller, await(ran));
    assertFalse(pipeline.inStep(), "the caller left the section again");
  }

  @Test
  void anInlineStepDoesNotRunInTheCallersGrpcContext() throws Exception {
    // A step's own runtime calls (updates of other containers) must not end with the request whose
    // thread runs it: gRPC cancels calls made in a context when that context is cancelled.
    Context.CancellableContext request = Context.current().withCancellation();
    Context previous = request.attach();
    Context seen;
    try {
      seen = await(pipeline.run(s -> Context.current()));
    } finally {
      request.detach(previous);
    }
    request.cancel(null);
    assertNotSame(request, seen);
    assertFalse(seen.isCancelled(), "the step's context ended with the request's");
    assertSame(Context.ROOT, Context.current(), "the caller's context is back after the step");
  }

  @Test
  void busyPipelineQueuesTheStepForThePipelineThread() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> busy = occupy(release);
    CompletableFuture<String> queued = pipeline.run(s -> Thread.currentThread().getName());
    assertFalse(queued.isDone(), "a step waits while another runs");
    release.countDown();
    assertEquals("cri-pipeline", await(busy));
    assertEquals("cri-pipeline", await(queued));
  }

  @Test
  void neverRunsAStepInlineOnAnEventLoop() throws Exception {
    CompletableFuture<String> ran = fromLoop(s -> Thread.currentThread().getName());
    assertEquals("cri-pipeline", await(ran));
    assertFalse(pipeline.mayRunInline(loop.submit(Thread::currentThread).get()));
    assertTrue(pipeline.mayRunInline(Thread.currentThread()));
  }

  @Test
  void stepsFromEventLoopsAndOtherThreadsRunInSubmissionOrder() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> busy = occupy(release);
    List<String> order = new ArrayList<>();
    CompletableFuture<?> first = fromLoop(s -> order.add("loop"));
    CompletableFuture<?> second = pipeline.run(s -> order.add("caller"));
    CompletableFuture<?> third = fromLoop(s -> order.add("loop again"));
    assertFalse(second.isDone(), "a step submitted behind queued ones waits for them");
    release.countDown();
    await(busy);
    await(third);
    assertTrue(first.isDone() && second.isDone());
    assertEquals(List.of("loop", "caller", "loop again"), order);
  }

  @Test
  void stepsNeverOverlapAndKeepEachSubmittersOrder() throws Exception {
    int threads = 4;
    int steps = 500;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    List<List<Integer>> seen = new ArrayList<>();
    List<Thread> submitters = new ArrayList<>();
    List<CompletableFuture<?>> last = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      List<Integer> mine = new ArrayList<>();
      seen.add(mine);
      CompletableFuture<Object> done = new CompletableFuture<>();
      last.add(done);
      boolean onLoop = t % 2 == 0;
      Runnable submit =
          () -> {
            CompletableFuture<?> f = null;
            for (int i = 0; i < steps; i++) {
              int n = i;
              f =
                  pipeline.run(
                      s -> {
                        if (inside.incrementAndGet() != 1) {
                          overlaps.incrementAndGet();
                        }
                        mine.add(n);
                        inside.decrementAndGet();
                        return n;
                      });
            }
            var unused = f.whenComplete((v, e) -> done.complete(v));
          };
      submitters.add(onLoop ? new Thread(() -> loop.execute(submit)) : new Thread(submit));
    }
    submitters.forEach(Thread::start);
    for (CompletableFuture<?> done : last) {
      await(done);
    }
    assertEquals(0, overlaps.get(), "steps that ran at the same time");
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      expected.add(i);
    }
    for (List<Integer> mine : seen) {
      assertEquals(expected, await(pipeline.run(s -> List.copyOf(mine))));
    }
  }

  @Test
  void aFailingInlineStepFailsItsFutureNotTheCaller() throws Exception {
    CompletableFuture<Object> failed =
        pipeline.run(
            s -> {
              throw new IllegalStateException("broken step");
            });
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(failed));
    assertEquals("broken step", e.getCause().getMessage());
    assertEquals("after", await(pipeline.run(s -> "after")));
  }

  @Test
  void closedPipelineRunsNoStepInline() throws Exception {
    pipeline.close();
    CompletableFuture<String> late = pipeline.run(s -> "ran");
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(late));
    RequestException refused = assertInstanceOf(RequestException.class, e.getCause());
    assertEquals(Status.Code.UNAVAILABLE, refused.status().getCode());
  }

  @Test
  void closeFinishesStepsQueuedBeforeIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> occupying = occupy(release);
    CompletableFuture<String> queued = pipeline.run(s -> "queued");
    Thread closer = new Thread(pipeline::close);
    closer.start();
    release.countDown();
    closer.join(TimeUnit.SECONDS.toMillis(20));
    assertEquals("queued", await(queued));
    assertTrue(occupying.isDone(), "the step before it finished first");
  }

  @Test
  void createAnswersBeforeItsCommitRunsAndLaterStepsRunAfterIt() throws Exception {
    HeldRuntime runtime = new HeldRuntime();
    RequestFlow flow = new RequestFlow(pipeline, new RuntimeClient(runtime));
    List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
    VersionRequest request = VersionRequest.newBuilder().setVersion("v1").build();
    CompletableFuture<VersionResponse> answer =
        flow.decideCallCommit(
            CallScope.none(),
            RuntimeServiceGrpc.getVersionMethod(),
            request,
            s -> () -> request,
            (s, decision, reply, error) -> order.add("commit " + (reply == null ? error : "ok")));
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> busy = occupy(release);
    VersionResponse reply = VersionResponse.newBuilder().setRuntimeName("fake").build();
    loop.execute(() -> runtime.answer(reply));
    assertEquals(reply, await(answer), "answered while the commit waits behind a busy step");
    assertEquals(List.of(), order);
    CompletableFuture<Boolean> next = pipeline.run(s -> order.add("next"));
    release.countDown();
    await(busy);
    await(next);
    assertEquals(List.of("commit ok", "next"), order);
  }

  /** A decision sending {@code request} once {@code ready}, with {@code work} while called. */
  private static RequestFlow.Decision<VersionRequest> decision(
      VersionRequest request, CompletableFuture<?> ready, Runnable work) {
    return new RequestFlow.Decision<>() {
      @Override
      public VersionRequest request() {
        return request;
      }

      @Override
      public CompletableFuture<?> ready() {
        return ready;
      }

      @Override
      public Runnable whileCalled() {
        return work;
      }
    };
  }

  @Test
  void workWhileCalledRunsOnceTheCallIsSentAndTheCommitWaitsForIt() throws Exception {
    HeldRuntime runtime = new HeldRuntime();
    RequestFlow flow = new RequestFlow(pipeline, new RuntimeClient(runtime));
    List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
    VersionRequest request = VersionRequest.newBuilder().setVersion("v1").build();
    VersionResponse reply = VersionResponse.newBuilder().setRuntimeName("fake").build();
    Runnable work =
        () -> {
          order.add("work, call sent " + runtime.listener.isDone());
          try {
            // The runtime answers while the work runs: neither answer nor commit may overtake it.
            loop.submit(() -> runtime.answer(reply)).get(10, TimeUnit.SECONDS);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          order.add("work done");
        };
    CompletableFuture<VersionResponse> answer =
        flow.decideCallCommit(
            CallScope.none(),
            RuntimeServiceGrpc.getVersionMethod(),
            request,
            s -> decision(request, CompletableFuture.completedFuture(null), work),
            (s, d, r, error) -> order.add("commit " + (r == null ? error : "ok")));
    assertEquals(reply, await(answer));
    await(pipeline.run(s -> true));
    assertEquals(List.of("work, call sent true", "work done", "commit ok"), order);
  }

  @Test
  void workWhileCalledNeverRunsOnAnEventLoop() throws Exception {
    HeldRuntime runtime = new HeldRuntime();
    RequestFlow flow = new RequestFlow(pipeline, new RuntimeClient(runtime));
    VersionRequest request = VersionRequest.newBuilder().setVersion("v1").build();
    // Ready on the event loop, as when updates of other containers had to go out first: the call
    // is then sent from the loop.
    CompletableFuture<Void> ready = new CompletableFuture<>();
    CompletableFuture<String> workThread = new CompletableFuture<>();
    CompletableFuture<VersionResponse> answer =
        flow.decideCallCommit(
            CallScope.none(),
            RuntimeServiceGrpc.getVersionMethod(),
            request,
            s ->
                decision(
                    request, ready, () -> workThread.complete(Thread.currentThread().getName())),
            (s, d, r, error) -> {});
    loop.submit(() -> ready.complete(null)).get(10, TimeUnit.SECONDS);
    assertEquals("cri-pipeline", await(workThread));
    VersionResponse reply = VersionResponse.newBuilder().setRuntimeName("fake").build();
    loop.execute(() -> runtime.answer(reply));
    assertEquals(reply, await(answer));
  }

  @Test
  void theSaversSnapshotWaitsForTheRunningStepAndNeverSeesHalfOfIt() throws Exception {
    // The saver's snapshot is taken under the steps' lock, not in a queued step of its own (which
    // woke the pipeline thread and put the next request's step behind it): it must still never see
    // half a step.
    CountDownLatch halfway = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> step =
        fromLoop(
            s -> {
              s.cache().setPolicyData("first", TextNode.valueOf("1"));
              halfway.countDown();
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              s.cache().setPolicyData("second", TextNode.valueOf("2"));
              return Thread.currentThread().getName();
            });
    assertTrue(halfway.await(10, TimeUnit.SECONDS), "the step started");
    CompletableFuture<CacheSnapshot> taken = new CompletableFuture<>();
    Thread saver =
        new Thread(
            () -> {
              try {
                taken.complete(pipeline.snapshot());
              } catch (RuntimeException e) {
                taken.completeExceptionally(e);
              }
            },
            "test-saver");
    try {
      saver.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!taken.isDone()
          && saver.getState() != Thread.State.TIMED_WAITING
          && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertFalse(taken.isDone(), "no snapshot while a step is half done");
      assertEquals(
          Thread.State.TIMED_WAITING, saver.getState(), "the saver waits for the running step");
    } finally {
      release.countDown();
    }
    assertEquals("cri-pipeline", await(step));
    assertEquals(Set.of("first", "second"), await(taken).policyData().keySet());
    saver.join(TimeUnit.SECONDS.toMillis(10));
  }

  @Test
  void closingWithAStepStillRunningTheSaverGivesUpAtOnce() throws Exception {
    // The saver's last snapshot must not hold up a shutdown behind a step that did not end in the
    // drain's time: the cache file keeps its last save.
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> busy = occupy(release);
    Thread closer = new Thread(pipeline::close, "test-closer");
    try {
      closer.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      CompletableFuture<Object> submitted;
      do {
        submitted = pipeline.run(s -> "queued before the close");
      } while (!submitted.isDone() && System.nanoTime() < deadline);
      CompletableFuture<Object> refused = submitted;
      // bounded: a close that never refused would otherwise leave the test waiting for the step
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> refused.get(1, TimeUnit.SECONDS));
      assertEquals("cri-resmgr is shutting down", e.getCause().getMessage());
      IllegalStateException gaveUp = assertThrows(IllegalStateException.class, pipeline::snapshot);
      assertEquals("the pipeline is closing and a step still runs", gaveUp.getMessage());
    } finally {
      release.countDown();
    }
    assertEquals("cri-pipeline", await(busy));
    closer.join(TimeUnit.SECONDS.toMillis(20));
    assertFalse(closer.isAlive(), "the close ended once the step did");
  }

  /** A runtime channel whose one unary call is answered when the test says so. */
  private static final class HeldRuntime extends Channel {
    private final CompletableFuture<ClientCall.Listener<Object>> listener =
        new CompletableFuture<>();

    void answer(Object reply) {
      ClientCall.Listener<Object> l = listener.join();
      l.onHeaders(new Metadata());
      l.onMessage(reply);
      l.onClose(Status.OK, new Metadata());
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      return new ClientCall<>() {
        @Override
        @SuppressWarnings("unchecked")
        public void start(ClientCall.Listener<R> responses, Metadata headers) {
          listener.complete((ClientCall.Listener<Object>) responses);
        }

        @Override
        public void request(int count) {}

        @Override
        public void cancel(@Nullable String message, @Nullable Throwable cause) {}

        @Override
        public void halfClose() {}

        @Override
        public void sendMessage(Q message) {}
      };
    }

    @Override
    public String authority() {
      return "held";
    }
  }
}
