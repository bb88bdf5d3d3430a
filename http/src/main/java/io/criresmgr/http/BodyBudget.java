package io.criresmgr.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes that request bodies being received may take together ({@link HttpLimits#bodyBudget}).
 */
final class BodyBudget {
  private final AtomicLong free;

  BodyBudget(long total) {
    free = new AtomicLong(total);
  }

  /** Takes {@code bytes} if that many are free. */
  boolean tryReserve(long bytes) {
    long now;
    do {
      now = free.get();
      if (now < bytes) {
        return false;
      }
    } while (!free.compareAndSet(now, now - bytes));
    return true;
  }

  /** Gives back {@code bytes} taken by {@link #tryReserve}. */
  void release(long bytes) {
    free.addAndGet(bytes);
  }
}
