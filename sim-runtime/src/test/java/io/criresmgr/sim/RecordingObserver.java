package io.criresmgr.sim;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** Collects the messages of a server stream for assertions with timeouts. */
final class RecordingObserver<T> implements StreamObserver<T> {
  private final BlockingQueue<T> messages = new LinkedBlockingQueue<>();
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile @Nullable Throwable error;

  @Override
  public void onNext(T value) {
    messages.add(value);
  }

  @Override
  public void onError(Throwable t) {
    error = t;
    done.countDown();
  }

  @Override
  public void onCompleted() {
    done.countDown();
  }

  /** The next message, or an AssertionError after 5 seconds. */
  T next() throws InterruptedException {
    T value = messages.poll(5, TimeUnit.SECONDS);
    if (value == null) {
      throw new AssertionError("no message within 5 s");
    }
    return value;
  }

  /** The next message if one arrives within {@code millis}. */
  @Nullable T poll(long millis) throws InterruptedException {
    return messages.poll(millis, TimeUnit.MILLISECONDS);
  }

  /** Waits for the end of the stream; returns the error or null on normal completion. */
  @Nullable Throwable awaitEnd() throws InterruptedException {
    if (!done.await(5, TimeUnit.SECONDS)) {
      throw new AssertionError("stream did not end within 5 s");
    }
    return error;
  }
}
