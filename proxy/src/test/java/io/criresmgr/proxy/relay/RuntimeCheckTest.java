package io.criresmgr.proxy.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The version check at start: a runtime that is slow to answer its first calls (a busy node, a TCG
 * virtual machine) is asked again, as one that is not up yet; other errors end the start.
 */
class RuntimeCheckTest {
  private static final Duration ATTEMPT = Duration.ofMillis(200);

  private final AtomicInteger calls = new AtomicInteger();
  private @Nullable Server server;
  private @Nullable ManagedChannel channel;

  /** A runtime that ignores its first {@code silent} Version calls, then answers or fails. */
  private void runtime(int silent, Status failure) throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .addService(
                new RuntimeServiceGrpc.RuntimeServiceImplBase() {
                  @Override
                  public void version(
                      VersionRequest request, StreamObserver<VersionResponse> reply) {
                    if (calls.incrementAndGet() <= silent) {
                      return; // never answers: the caller's deadline ends the call
                    }
                    if (!failure.isOk()) {
                      reply.onError(failure.asRuntimeException());
                      return;
                    }
                    reply.onNext(
                        VersionResponse.newBuilder()
                            .setRuntimeName("containerd")
                            .setRuntimeVersion("1.7.24")
                            .setRuntimeApiVersion("v1")
                            .build());
                    reply.onCompleted();
                  }
                })
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  private ManagedChannel channel() {
    if (channel == null) {
      throw new IllegalStateException("no runtime");
    }
    return channel;
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aRuntimeThatMissesTheFirstDeadlinesIsAskedAgain() throws Exception {
    runtime(2, Status.OK);
    VersionResponse v =
        RuntimeCheck.checkVersion(channel(), false, ATTEMPT, Duration.ofSeconds(30));
    assertEquals("1.7.24", v.getRuntimeVersion());
    assertEquals(3, calls.get());
  }

  @Test
  void aRuntimeThatNeverAnswersEndsTheStartWithTheLimitInTheMessage() throws Exception {
    runtime(Integer.MAX_VALUE, Status.OK);
    RelayException e =
        assertThrows(
            RelayException.class,
            () -> RuntimeCheck.checkVersion(channel(), false, ATTEMPT, Duration.ofSeconds(1)));
    assertTrue(
        e.getMessage().startsWith("cannot query the runtime's version (tried for up to 1 s): "),
        e.getMessage());
    assertTrue(e.getMessage().contains("DEADLINE_EXCEEDED"), e.getMessage());
    assertTrue(calls.get() >= 2, () -> "asked " + calls.get() + " times");
  }

  @Test
  void otherErrorsAreNotRetried() throws Exception {
    runtime(0, Status.UNIMPLEMENTED.withDescription("no CRI v1 here"));
    RelayException e =
        assertThrows(
            RelayException.class,
            () -> RuntimeCheck.checkVersion(channel(), false, ATTEMPT, Duration.ofSeconds(30)));
    assertTrue(e.getMessage().contains("UNIMPLEMENTED"), e.getMessage());
    assertEquals(1, calls.get());
  }
}
