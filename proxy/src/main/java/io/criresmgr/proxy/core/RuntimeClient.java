package io.criresmgr.proxy.core;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Typed unary calls to the runtime for intercepted requests and the pipeline's own updates. The
 * caller's deadline is passed on; calls the daemon makes itself get {@link #OWN_DEADLINE_SECONDS}.
 */
public final class RuntimeClient {
  /** Deadline of calls the daemon makes on its own behalf (updates, start-up listing). */
  public static final long OWN_DEADLINE_SECONDS = 30;

  /**
   * How much of {@link #OWN_DEADLINE_SECONDS} an own call's options may have used up and still be
   * given to the next own call: an exclusive grant re-assigns hundreds of containers, each with an
   * update, and one deadline and one {@link CallOptions} copy per update were a tenth of a
   * decision's garbage (docs/benchmarks.md, "Issue 20: re-assigned containers, fourth round").
   */
  static final long OWN_DEADLINE_SLACK_MILLIS = 100;

  private static final long OWN_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(OWN_DEADLINE_SECONDS);
  private static final long OWN_REUSE_NANOS =
      OWN_DEADLINE_NANOS - TimeUnit.MILLISECONDS.toNanos(OWN_DEADLINE_SLACK_MILLIS);

  private final Channel channel;
  private final Deadline.Ticker ticker;

  /** The options of the last own call; any thread may replace them, a race costs a copy. */
  private volatile CallOptions ownOptions;

  /** Calls go to {@code channel}. */
  public RuntimeClient(Channel channel) {
    this(channel, Deadline.getSystemTicker());
  }

  /** Calls go to {@code channel}; own deadlines are measured by {@code ticker} (tests). */
  RuntimeClient(Channel channel, Deadline.Ticker ticker) {
    this.channel = Objects.requireNonNull(channel, "channel");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.ownOptions = CallOptions.DEFAULT.withDeadline(Deadline.after(0, TimeUnit.SECONDS, ticker));
  }

  /** Calls {@code method} with the current gRPC context's deadline, if any. */
  public <Q, R> CompletableFuture<R> call(MethodDescriptor<Q, R> method, Q request) {
    return call(method, request, Context.current().getDeadline());
  }

  /**
   * Calls {@code method} on the daemon's own behalf, with the daemon's deadline: {@link
   * #OWN_DEADLINE_SECONDS} from now, or from at most {@link #OWN_DEADLINE_SLACK_MILLIS} ago.
   */
  public <Q, R> CompletableFuture<R> callOwn(MethodDescriptor<Q, R> method, Q request) {
    FutureOutcome<R> result = new FutureOutcome<>();
    call(method, request, ownOptions(), result);
    return result;
  }

  /**
   * Calls {@code method} on the daemon's own behalf, as {@link #callOwn(MethodDescriptor, Object)},
   * and hands the reply or the failure to {@code outcome} instead of a future: a caller that needs
   * its own object per call anyway (an update's context) makes no other.
   */
  <Q, R> void callOwn(MethodDescriptor<Q, R> method, Q request, Outcome<R> outcome) {
    call(method, request, ownOptions(), outcome);
  }

  /** Told how a call ended, once, as {@code ClientCalls.futureUnaryCall}'s future would be. */
  interface Outcome<R> {
    /** The call's reply, or (reply null) its failure: a {@link StatusRuntimeException}. */
    void done(@Nullable R reply, @Nullable StatusRuntimeException failure);
  }

  /** A future completed with the outcome. */
  private static final class FutureOutcome<R> extends CompletableFuture<R> implements Outcome<R> {
    @Override
    public void done(@Nullable R reply, @Nullable StatusRuntimeException failure) {
      if (reply != null) {
        complete(reply);
      } else {
        completeExceptionally(Objects.requireNonNull(failure, "failure"));
      }
    }
  }

  /** Options with the own deadline, shared by the own calls made within the slack. */
  CallOptions ownOptions() {
    CallOptions options = ownOptions;
    Deadline deadline = Objects.requireNonNull(options.getDeadline(), "own deadline");
    if (deadline.timeRemaining(TimeUnit.NANOSECONDS) < OWN_REUSE_NANOS) {
      options =
          CallOptions.DEFAULT.withDeadline(
              Deadline.after(OWN_DEADLINE_NANOS, TimeUnit.NANOSECONDS, ticker));
      ownOptions = options;
    }
    return options;
  }

  /**
   * Calls {@code method} with {@code deadline} (none if null). The outcome is what grpc-java's
   * {@code ClientCalls.futureUnaryCall} gives (the reply, or a {@link StatusRuntimeException} with
   * the runtime's status and trailers), completed on the transport thread by a listener of its own
   * instead of through a Guava future: every intercepted request makes at least one such call
   * (docs/benchmarks.md, "Issue 20: the intercepted path, a third time").
   */
  public <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method, Q request, @Nullable Deadline deadline) {
    FutureOutcome<R> result = new FutureOutcome<>();
    call(method, request, CallOptions.DEFAULT.withDeadline(deadline), result);
    return result;
  }

  private <Q, R> void call(
      MethodDescriptor<Q, R> method, Q request, CallOptions options, Outcome<R> outcome) {
    ClientCall<Q, R> call = channel.newCall(method, options);
    Unary<R> unary = new Unary<>(call, outcome);
    try {
      call.start(unary, new Metadata());
      call.request(2); // two, to notice a second reply
      call.sendMessage(request);
      call.halfClose();
    } catch (RuntimeException | Error e) {
      call.cancel(null, e);
      throw e;
    }
  }

  /** Tells {@link #outcome} the one reply or the failure, as a unary call answers. */
  private static final class Unary<R> extends ClientCall.Listener<R> {
    private final ClientCall<?, R> call;
    private final Outcome<R> outcome;
    private @Nullable R reply;

    Unary(ClientCall<?, R> call, Outcome<R> outcome) {
      this.call = call;
      this.outcome = outcome;
    }

    @Override
    public void onMessage(R message) {
      if (reply != null) {
        call.cancel("More than one value received for unary call", null);
        return;
      }
      reply = message;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (!status.isOk()) {
        outcome.done(null, status.asRuntimeException(trailers));
      } else if (reply == null) {
        outcome.done(
            null,
            Status.INTERNAL
                .withDescription("No value received for unary call")
                .asRuntimeException(trailers));
      } else {
        outcome.done(reply, null);
      }
    }
  }
}
