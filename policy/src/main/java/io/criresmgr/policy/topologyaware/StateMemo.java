package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * Remembers the ledgers behind the last two policy data trees this policy produced, by identity:
 * the cache hands back the very tree it stored, so the next request need not parse hundreds of
 * grants again. Two entries cover a decision the pipeline rolled back (the cache then still holds
 * the previous tree). Used on the pipeline thread only.
 */
final class StateMemo {
  private @Nullable JsonNode lastData;
  private @Nullable Ledger last;
  private @Nullable JsonNode previousData;
  private @Nullable Ledger previous;

  /** The frozen ledger produced with {@code data}, if it is one of the last two. */
  @Nullable Ledger get(JsonNode data) {
    if (data == lastData) {
      return last;
    }
    return data == previousData ? previous : null;
  }

  /** Remembers that {@code data} describes {@code ledger} (which gets frozen). */
  void put(JsonNode data, Ledger ledger) {
    previousData = lastData;
    previous = last;
    lastData = data;
    last = ledger.freeze();
  }
}
