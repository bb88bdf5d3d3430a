package io.criresmgr.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.ListPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxResponse;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Latency, injected failures and recorded requests, seen from a real client. */
class SimHooksTest {
  private static final Metadata.Key<String> DETAIL =
      Metadata.Key.of("x-sim-detail", Metadata.ASCII_STRING_MARSHALLER);

  private final InProcessSim env = new InProcessSim();
  private final SimHooks hooks = env.sim.hooks();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void failNextRelaysStatusAndTrailersOnceWithoutSideEffects() {
    Metadata trailers = new Metadata();
    trailers.put(DETAIL, "disk full");
    hooks.failNext("RunPodSandbox", Status.RESOURCE_EXHAUSTED.withDescription("boom"), trailers);

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> runPod("web"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertEquals("boom", e.getStatus().getDescription());
    assertEquals("disk full", e.getTrailers().get(DETAIL));
    assertEquals(0, podCount(), "the failed call changed nothing");

    runPod("web");
    assertEquals(1, podCount());
    assertEquals(2, hooks.callCount("RunPodSandbox"));
    assertEquals(2, hooks.requests("RunPodSandbox").size());
  }

  @Test
  void observersSeeEachRequest() {
    List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    hooks.onRequest(
        "RunPodSandbox",
        m -> seen.add(((RunPodSandboxRequest) m).getConfig().getMetadata().getName()));
    hooks.failNext("RunPodSandbox", Status.UNAVAILABLE);
    assertThrows(StatusRuntimeException.class, () -> runPod("first"));
    runPod("web");
    assertEquals(List.of("first", "web"), seen, "also the request failed on purpose");

    hooks.reset();
    runPod("other");
    assertEquals(2, seen.size(), "reset forgets observers");
  }

  @Test
  void failuresQueueUp() {
    hooks.failNext("Version", Status.UNAVAILABLE);
    hooks.failNext("Version", Status.INTERNAL);
    assertEquals(Status.Code.UNAVAILABLE, versionError().getStatus().getCode());
    assertEquals(Status.Code.INTERNAL, versionError().getStatus().getCode());
    assertEquals("cri-resmgr-sim-runtime", version());
  }

  @Test
  void latencyBeyondTheDeadlineExpiresTheCallAndSkipsIt() throws InterruptedException {
    hooks.setLatency(Duration.ofMillis(500));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                env.runtime
                    .withDeadlineAfter(50, TimeUnit.MILLISECONDS)
                    .runPodSandbox(request("web")));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
    awaitCancelled("RunPodSandbox");
    Thread.sleep(600);
    hooks.setLatency(Duration.ZERO);
    assertEquals(0, podCount(), "a call cancelled while delayed is not executed");
  }

  @Test
  void latencyPerMethodDelaysOnlyThatMethod() throws InterruptedException {
    hooks.setLatency("Version", Duration.ofSeconds(10));
    Context.CancellableContext context = Context.current().withCancellation();
    RecordingObserver<VersionResponse> delayed = new RecordingObserver<>();
    context.run(() -> env.runtimeAsync.version(VersionRequest.getDefaultInstance(), delayed));
    assertEquals(0, podCount(), "other methods answer meanwhile");
    assertNull(delayed.poll(50), "Version is still delayed");
    context.cancel(null);

    hooks.setLatency("Version", Duration.ofMillis(100));
    long start = System.nanoTime();
    assertEquals("cri-resmgr-sim-runtime", version());
    assertTrue(System.nanoTime() - start >= 100_000_000L, "delayed by at least 100 ms");
  }

  @Test
  void delayedCallsWaitInParallel() throws InterruptedException {
    // One second each: served one after another, 16 calls take 16 s; in parallel about 1 s. The
    // margin keeps a loaded machine (CI, other builds) from failing the test.
    hooks.setLatency("RunPodSandbox", Duration.ofSeconds(1));
    List<RecordingObserver<RunPodSandboxResponse>> calls = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < 16; i++) {
      RecordingObserver<RunPodSandboxResponse> call = new RecordingObserver<>();
      env.runtimeAsync.runPodSandbox(request("pod" + i), call);
      calls.add(call);
    }
    for (RecordingObserver<RunPodSandboxResponse> call : calls) {
      assertNull(call.awaitEnd());
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(millis >= 1000, "delayed: " + millis + " ms");
    assertTrue(millis < 8000, "16 calls took " + millis + " ms, as if served one after another");
    assertEquals(16, podCount());
  }

  @Test
  void clientCancellationDuringLatencyIsCounted() throws InterruptedException {
    hooks.setLatency(Duration.ofSeconds(5));
    Context.CancellableContext context = Context.current().withCancellation();
    RecordingObserver<RunPodSandboxResponse> observer = new RecordingObserver<>();
    context.run(() -> env.runtimeAsync.runPodSandbox(request("web"), observer));
    context.cancel(null);
    assertEquals(Status.Code.CANCELLED, Status.fromThrowable(observer.awaitEnd()).getCode());
    awaitCancelled("RunPodSandbox");
  }

  @Test
  void lastRequestIsRecordedPerMethod() {
    assertEquals(Optional.empty(), hooks.lastRequest("RunPodSandbox", RunPodSandboxRequest.class));
    runPod("first");
    runPod("second");
    RunPodSandboxRequest last =
        hooks.lastRequest("RunPodSandbox", RunPodSandboxRequest.class).orElseThrow();
    assertEquals("second", last.getConfig().getMetadata().getName());
    hooks.reset();
    assertEquals(0, hooks.callCount("RunPodSandbox"));
    assertEquals(Optional.empty(), hooks.lastRequest("RunPodSandbox", RunPodSandboxRequest.class));
  }

  @Test
  void unknownMethodNamesAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> hooks.failNext("CreateContaner", Status.INTERNAL));
    assertTrue(e.getMessage().contains("CreateContainer"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> hooks.failNext("Version", Status.OK));
    assertThrows(IllegalArgumentException.class, () -> hooks.setLatency(Duration.ofMillis(-1)));
  }

  private void awaitCancelled(String method) throws InterruptedException {
    for (int i = 0; i < 500 && hooks.cancelledCount(method) == 0; i++) {
      Thread.sleep(10);
    }
    assertEquals(1, hooks.cancelledCount(method));
  }

  private void runPod(String name) {
    env.runtime.runPodSandbox(request(name));
  }

  private static RunPodSandboxRequest request(String name) {
    return RunPodSandboxRequest.newBuilder().setConfig(InProcessSim.podConfig(name)).build();
  }

  private int podCount() {
    return env.runtime.listPodSandbox(ListPodSandboxRequest.getDefaultInstance()).getItemsCount();
  }

  private String version() {
    return env.runtime.version(VersionRequest.getDefaultInstance()).getRuntimeName();
  }

  private StatusRuntimeException versionError() {
    return assertThrows(StatusRuntimeException.class, this::version);
  }
}
