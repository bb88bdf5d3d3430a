package io.criresmgr.policy;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * Remembers the parsed state behind the last two policy data trees a policy produced, by identity:
 * the cache hands back the very tree it stored, so the next request need not parse it again. Two
 * entries cover a decision the pipeline rolled back (the cache then still holds the previous tree).
 * Not thread-safe: a policy uses it on the pipeline thread.
 *
 * @param <T> the parsed state; must be immutable, since later requests share it
 */
public final class DataMemo<T> {
  private @Nullable JsonNode lastData;
  private @Nullable T last;
  private @Nullable JsonNode previousData;
  private @Nullable T previous;

  /** The state remembered for this very tree, if it is one of the last two. */
  @SuppressWarnings("ReferenceEquality") // identity is the point: the cache returns the same tree
  public @Nullable T get(JsonNode data) {
    if (lastData == data) {
      return last;
    }
    return previousData == data ? previous : null;
  }

  /** Remembers that {@code data} stands for {@code state}. */
  public void put(JsonNode data, T state) {
    previousData = lastData;
    previous = last;
    lastData = data;
    last = state;
  }
}
