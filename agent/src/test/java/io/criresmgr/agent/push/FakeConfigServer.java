package io.criresmgr.agent.push;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetAdjustmentReply;
import io.criresmgr.api.config.v1.SetAdjustmentRequest;
import io.criresmgr.api.config.v1.SetConfigReply;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.grpc.unix.UnixGrpc;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A {@code v1.Config} server on a Unix socket for the pusher's tests: records every request and
 * answers with the error {@code verdict} gives for the request's configuration (empty: accepted),
 * and with the errors {@link #answerAdjustments} scripts for SetAdjustment (none by default).
 */
public final class FakeConfigServer implements AutoCloseable {
  private final Path socket;
  private final Function<Map<String, String>, String> verdict;
  private final List<SetConfigRequest> requests = new CopyOnWriteArrayList<>();
  private final EventLoopGroup loops = EventLoops.epoll("fake-config", 1);
  private final Server server;
  private final List<SetAdjustmentRequest> adjustmentRequests = new CopyOnWriteArrayList<>();
  private volatile Function<String, Map<String, String>> adjustmentVerdict = json -> Map.of();
  private volatile @Nullable Status adjustmentFailure;

  private FakeConfigServer(Path socket, Function<Map<String, String>, String> verdict)
      throws IOException {
    this.socket = socket;
    this.verdict = verdict;
    Files.createDirectories(socket.getParent());
    server = UnixGrpc.server(socket, loops, loops).addService(new Service()).build().start();
  }

  /** Serves on {@code socket} (a stale file there is replaced). */
  public static FakeConfigServer start(Path socket, Function<Map<String, String>, String> verdict)
      throws IOException {
    Files.deleteIfExists(socket);
    return new FakeConfigServer(socket, verdict);
  }

  /** Every SetConfig request received, in order. */
  List<SetConfigRequest> requests() {
    return List.copyOf(requests);
  }

  /** The configurations received, in order. */
  List<Map<String, String>> configs() {
    return requests.stream().map(SetConfigRequest::getConfigMap).toList();
  }

  /** Answers each SetAdjustment with the errors {@code verdict} gives for its JSON. */
  public void answerAdjustments(Function<String, Map<String, String>> verdict) {
    adjustmentVerdict = verdict;
  }

  /** Fails each SetAdjustment with {@code status} (null: answer again). */
  public void failAdjustments(@Nullable Status status) {
    adjustmentFailure = status;
  }

  /** Every SetAdjustment request received, in order. */
  public List<SetAdjustmentRequest> adjustmentRequests() {
    return List.copyOf(adjustmentRequests);
  }

  /** The adjustment JSON of every SetAdjustment request, in order. */
  public List<String> adjustments() {
    return adjustmentRequests.stream().map(SetAdjustmentRequest::getAdjustment).toList();
  }

  @Override
  public void close() throws IOException {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    EventLoops.shutdown(loops);
    Files.deleteIfExists(socket);
  }

  private final class Service extends ConfigGrpc.ConfigImplBase {
    @Override
    public void setConfig(SetConfigRequest request, StreamObserver<SetConfigReply> reply) {
      requests.add(request);
      String error = verdict.apply(request.getConfigMap());
      reply.onNext(SetConfigReply.newBuilder().setError(error).build());
      reply.onCompleted();
    }

    @Override
    public void setAdjustment(
        SetAdjustmentRequest request, StreamObserver<SetAdjustmentReply> reply) {
      adjustmentRequests.add(request);
      Status failure = adjustmentFailure;
      if (failure != null) {
        reply.onError(failure.asRuntimeException());
        return;
      }
      Map<String, String> errors = adjustmentVerdict.apply(request.getAdjustment());
      reply.onNext(SetAdjustmentReply.newBuilder().putAllErrors(errors).build());
      reply.onCompleted();
    }
  }
}
