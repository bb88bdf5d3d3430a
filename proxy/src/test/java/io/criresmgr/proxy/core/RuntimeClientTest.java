package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.api.runtime.v1.VersionResponse;
import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The unary call's outcomes, as grpc-java's {@code ClientCalls.futureUnaryCall} gives them. */
class RuntimeClientTest {
  private static final Metadata.Key<String> DETAIL =
      Metadata.Key.of("detail", Metadata.ASCII_STRING_MARSHALLER);

  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(twoReplies(new FakeRuntime()))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  /**
   * {@code service} with Version declared server-streaming, so it can send the second reply that a
   * unary server call refuses to send.
   */
  private static ServerServiceDefinition twoReplies(BindableService service) {
    ServerServiceDefinition unary = service.bindService();
    MethodDescriptor<VersionRequest, VersionResponse> streaming =
        RuntimeServiceGrpc.getVersionMethod().toBuilder()
            .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
            .build();
    ServerServiceDefinition.Builder b =
        ServerServiceDefinition.builder(RuntimeServiceGrpc.SERVICE_NAME);
    for (ServerMethodDefinition<?, ?> m : unary.getMethods()) {
      if (!m.getMethodDescriptor().getFullMethodName().equals(streaming.getFullMethodName())) {
        b.addMethod(m);
      }
    }
    return b.addMethod(
            streaming,
            ServerCalls.asyncServerStreamingCall(
                (VersionRequest request, StreamObserver<VersionResponse> reply) ->
                    new FakeRuntime().version(request, reply)))
        .build();
  }

  /** Answers by the version asked for: a reply, a failure with trailers, nothing, two replies. */
  private static final class FakeRuntime extends RuntimeServiceGrpc.RuntimeServiceImplBase {
    @Override
    public void version(VersionRequest request, StreamObserver<VersionResponse> reply) {
      VersionResponse answer = VersionResponse.newBuilder().setRuntimeName("sim").build();
      switch (request.getVersion()) {
        case "fail" -> {
          Metadata trailers = new Metadata();
          trailers.put(DETAIL, "why");
          reply.onError(Status.NOT_FOUND.withDescription("no such").asRuntimeException(trailers));
        }
        case "none" -> reply.onCompleted();
        case "two" -> {
          reply.onNext(answer);
          reply.onNext(answer);
          reply.onCompleted();
        }
        default -> {
          reply.onNext(answer);
          reply.onCompleted();
        }
      }
    }
  }

  private CompletableFuture<VersionResponse> version(String version) {
    return new RuntimeClient(channel)
        .call(
            RuntimeServiceGrpc.getVersionMethod(),
            VersionRequest.newBuilder().setVersion(version).build(),
            Deadline.after(5, TimeUnit.SECONDS));
  }

  private static StatusRuntimeException failure(CompletableFuture<?> call) {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
    return assertInstanceOf(StatusRuntimeException.class, e.getCause());
  }

  @Test
  void completesWithTheReply() throws Exception {
    assertEquals("sim", version("v1").get(5, TimeUnit.SECONDS).getRuntimeName());
  }

  @Test
  void failsWithTheRuntimesStatusAndTrailers() {
    StatusRuntimeException e = failure(version("fail"));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertEquals("no such", e.getStatus().getDescription());
    assertEquals("why", e.getTrailers().get(DETAIL));
  }

  @Test
  void failsWithoutAReply() {
    StatusRuntimeException e = failure(version("none"));
    assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
    assertEquals("No value received for unary call", e.getStatus().getDescription());
  }

  @Test
  void failsOnASecondReply() {
    StatusRuntimeException e = failure(version("two"));
    assertEquals(Status.Code.CANCELLED, e.getStatus().getCode());
    assertEquals("More than one value received for unary call", e.getStatus().getDescription());
  }

  @Test
  void aPassedDeadlineFailsTheCall() {
    CompletableFuture<VersionResponse> call =
        new RuntimeClient(channel)
            .call(
                RuntimeServiceGrpc.getVersionMethod(),
                VersionRequest.getDefaultInstance(),
                Deadline.after(-1, TimeUnit.SECONDS));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, failure(call).getStatus().getCode());
  }

  /** A clock that moves only when told. */
  private static final class FakeTicker extends Deadline.Ticker {
    long nanos = 1_000_000_000L;

    @Override
    public long nanoTime() {
      return nanos;
    }
  }

  private static long remainingMillis(CallOptions options) {
    return Objects.requireNonNull(options.getDeadline()).timeRemaining(TimeUnit.MILLISECONDS);
  }

  @Test
  void ownCallsWithinTheSlackShareTheirDeadline() {
    FakeTicker ticker = new FakeTicker();
    RuntimeClient client = new RuntimeClient(channel, ticker);
    CallOptions first = client.ownOptions();
    assertEquals(
        TimeUnit.SECONDS.toMillis(RuntimeClient.OWN_DEADLINE_SECONDS), remainingMillis(first));

    ticker.nanos += TimeUnit.MILLISECONDS.toNanos(RuntimeClient.OWN_DEADLINE_SLACK_MILLIS);
    assertSame(first, client.ownOptions());

    ticker.nanos += 1;
    CallOptions next = client.ownOptions();
    assertNotSame(first, next);
    assertEquals(
        TimeUnit.SECONDS.toMillis(RuntimeClient.OWN_DEADLINE_SECONDS), remainingMillis(next));
  }

  @Test
  void anOwnCallCompletesWithTheReply() throws Exception {
    VersionResponse reply =
        new RuntimeClient(channel)
            .callOwn(
                RuntimeServiceGrpc.getVersionMethod(),
                VersionRequest.newBuilder().setVersion("v1").build())
            .get(5, TimeUnit.SECONDS);
    assertEquals("sim", reply.getRuntimeName());
  }
}
