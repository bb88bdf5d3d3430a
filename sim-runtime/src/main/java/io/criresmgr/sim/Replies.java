package io.criresmgr.sim;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/** Completes gRPC calls from a computation that may throw a {@link StatusRuntimeException}. */
final class Replies {
  /** Items per message of the {@code Stream*} list RPCs. */
  static final int STREAM_BATCH = 100;

  private Replies() {}

  /** Sends the computed response, or the status the computation threw. */
  static <T> void unary(StreamObserver<T> observer, Supplier<T> body) {
    T response;
    try {
      response = body.get();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }

  /**
   * Streams the computed items in messages of at most {@link #STREAM_BATCH} items; no items means
   * no message, just the end of the stream.
   */
  static <E, T> void stream(
      StreamObserver<T> observer, Supplier<List<E>> items, Function<List<E>, T> message) {
    List<E> all;
    try {
      all = items.get();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
      return;
    }
    for (int from = 0; from < all.size(); from += STREAM_BATCH) {
      observer.onNext(message.apply(all.subList(from, Math.min(all.size(), from + STREAM_BATCH))));
    }
    observer.onCompleted();
  }
}
