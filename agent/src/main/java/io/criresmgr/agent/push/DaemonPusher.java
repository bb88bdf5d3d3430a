package io.criresmgr.agent.push;

import io.grpc.CallOptions;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes the latest value of something (the configuration, the adjustments) to the daemon with one
 * unary call, as cri-resmgr's agent does: 5 s deadline; after a transport failure the latest value
 * (never an older one) is tried again every retry delay, for ever; an answer, or a refusal (a gRPC
 * error that is not about the transport), ends the value's push. When the connection to the daemon
 * drops (the daemon restarted), the latest value is pushed again. All of it runs on one thread of
 * its own, so {@link #accept} never blocks the caller.
 *
 * @param <T> the value pushed, compared with {@code equals}
 * @param <Q> the request message
 * @param <R> the reply message
 */
public final class DaemonPusher<T, Q, R> implements AutoCloseable {
  /** cri-resmgr-agent's deadline of a call to the daemon. */
  public static final Duration DEADLINE = Duration.ofSeconds(5);

  /** cri-resmgr-agent's delay before trying again after a transport failure. */
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(5);

  /** Codes meaning the daemon did not (or could not) look at the request: retried. */
  static final Set<Status.Code> TRANSPORT =
      Set.of(
          Status.Code.UNAVAILABLE,
          Status.Code.DEADLINE_EXCEEDED,
          Status.Code.CANCELLED,
          Status.Code.RESOURCE_EXHAUSTED,
          Status.Code.ABORTED,
          Status.Code.UNKNOWN,
          Status.Code.INTERNAL);

  private static final Logger log = LoggerFactory.getLogger(DaemonPusher.class);

  /**
   * One kind of push: the call and what to make of its outcome. The callbacks run on the pusher's
   * thread.
   */
  public interface Call<T, Q, R> {
    /** The gRPC method, e.g. {@code ConfigGrpc.getSetConfigMethod()}. */
    MethodDescriptor<Q, R> method();

    /** The request that pushes {@code value}. */
    Q request(T value);

    /** The daemon answered {@code reply} for {@code value}. */
    void answered(T value, R reply);

    /** The daemon refused {@code value} with a gRPC error; it is not pushed again. */
    void refused(T value, Status status);

    /** {@code value} for the logs, e.g. "the configuration from ConfigMap x". */
    String describe(T value);
  }

  private final Call<T, Q, R> call;
  private final DaemonChannel daemon;
  private final ManagedChannel channel;
  private final Path socket;
  private final Duration retryDelay;
  private final ScheduledExecutorService executor;
  private volatile boolean closed;
  // The fields below are used only on the executor's thread.
  private @Nullable T latest;
  private @Nullable T answered;
  private boolean busy;
  private boolean watching;
  private int failures;

  private DaemonPusher(Path socket, Duration retryDelay, String thread, Call<T, Q, R> call) {
    this.socket = socket;
    this.retryDelay = retryDelay;
    this.call = call;
    this.daemon = DaemonChannel.open(socket);
    this.channel = daemon.channel();
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread created = new Thread(task, thread);
              created.setDaemon(true);
              return created;
            });
  }

  /**
   * A pusher to the daemon's config socket {@code socket} doing {@code call} on a thread called
   * {@code thread}, trying again {@code retryDelay} after a transport failure. It connects on the
   * first push.
   */
  public static <T, Q, R> DaemonPusher<T, Q, R> open(
      Path socket, Duration retryDelay, String thread, Call<T, Q, R> call) {
    Objects.requireNonNull(socket, "socket");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(call, "call");
    if (retryDelay.isNegative() || retryDelay.isZero()) {
      throw new IllegalArgumentException("retry delay must be positive: " + retryDelay);
    }
    return new DaemonPusher<>(socket, retryDelay, thread, call);
  }

  /** Pushes {@code value} as soon as no other push is under way; returns at once. */
  public void accept(T value) {
    Objects.requireNonNull(value, "value");
    run(
        () -> {
          latest = value;
          pushIfDue();
        });
  }

  private void pushIfDue() {
    T value = latest;
    if (busy || value == null || value.equals(answered)) {
      return;
    }
    busy = true;
    CallOptions options =
        CallOptions.DEFAULT
            .withDeadlineAfter(DEADLINE.toNanos(), TimeUnit.NANOSECONDS)
            .withExecutor(executor);
    ClientCalls.asyncUnaryCall(
        channel.newCall(call.method(), options), call.request(value), new ReplyObserver(value));
  }

  private void answered(T value, R reply) {
    done(value);
    call.answered(value, reply);
    pushIfDue();
  }

  private void failed(T value, Throwable t) {
    if (closed) {
      return;
    }
    Status why = Status.fromThrowable(t);
    if (!TRANSPORT.contains(why.getCode())) {
      done(value);
      call.refused(value, why);
      pushIfDue();
      return;
    }
    failures++;
    if (failures == 1) {
      log.warn(
          "cannot push {} to cri-resmgr on {} ({}); retrying every {} s",
          call.describe(value),
          socket,
          describe(why),
          retryDelay.toMillis() / 1000.0);
    } else {
      log.debug("push to {} failed again ({})", socket, describe(why));
    }
    try {
      // The retry reports its own outcome (it logs and schedules again); nobody waits for it.
      var unused = executor.schedule(this::retry, retryDelay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      log.debug("push to {} stopped; no retry", socket);
    }
  }

  private void done(T value) {
    busy = false;
    if (failures > 0) {
      log.info("reached cri-resmgr on {} again", socket);
    }
    failures = 0;
    answered = value;
    watchConnection();
  }

  /** One line for a gRPC status. */
  public static String describe(Status status) {
    String description = status.getDescription();
    return status.getCode() + (description == null ? "" : ": " + description);
  }

  private void retry() {
    busy = false;
    // The daemon may be back long before gRPC's own reconnect backoff would notice.
    channel.resetConnectBackoff();
    pushIfDue();
  }

  /** Notices a dropped connection: a restarted daemon gets the latest value again. */
  private void watchConnection() {
    if (!watching) {
      watching = true;
      channel.notifyWhenStateChanged(ConnectivityState.READY, () -> run(this::connectionChanged));
    }
  }

  private void connectionChanged() {
    watching = false;
    ConnectivityState state = channel.getState(false);
    T value = latest;
    if (state == ConnectivityState.READY) {
      watchConnection();
    } else if (state != ConnectivityState.SHUTDOWN && !closed && value != null) {
      log.info(
          "lost the connection to cri-resmgr on {}; pushing {} again", socket, describe(value));
      answered = null;
      pushIfDue();
    }
  }

  private String describe(T value) {
    return call.describe(value);
  }

  private void run(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      log.debug("push to {} stopped; dropped a task", socket);
    }
  }

  /** Stops pushing and closes the connection. */
  @Override
  public void close() {
    closed = true;
    // The channel first: the cancelled call's callback still finds the executor running.
    daemon.close();
    executor.shutdownNow();
  }

  /** Hands one call's outcome to the pusher's thread (the call runs with its executor). */
  private final class ReplyObserver implements StreamObserver<R> {
    private final T value;
    private @Nullable R reply;

    ReplyObserver(T value) {
      this.value = value;
    }

    @Override
    public void onNext(R received) {
      reply = received;
    }

    @Override
    public void onError(Throwable t) {
      failed(value, t);
    }

    @Override
    public void onCompleted() {
      R received = reply;
      if (received == null) {
        failed(value, Status.INTERNAL.withDescription("no reply").asRuntimeException());
      } else {
        answered(value, received);
      }
    }
  }
}
