package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * Remembers the ledgers behind the last two policy data trees this policy produced or restored, by
 * identity: the cache hands back the very tree it stored, so the next request need not parse
 * hundreds of grants again. Two entries cover a decision the pipeline rolled back (the cache then
 * still holds the previous tree). Used on the pipeline thread only.
 */
final class StateMemo {
  private @Nullable Entry last;
  private @Nullable Entry previous;

  /**
   * A remembered state.
   *
   * @param data the policy data tree
   * @param ledger the frozen ledger it stands for
   * @param restored whether the ledger was restored from the data, not produced with it, so the
   *     cache may not reflect it yet
   */
  record Entry(JsonNode data, Ledger ledger, boolean restored) {}

  /** The state remembered for {@code data}, if it is one of the last two. */
  @Nullable Entry get(JsonNode data) {
    if (last != null && last.data() == data) {
      return last;
    }
    return previous != null && previous.data() == data ? previous : null;
  }

  /** Remembers that {@code data} stands for {@code ledger} (which gets frozen). */
  void put(JsonNode data, Ledger ledger, boolean restored) {
    previous = last;
    last = new Entry(data, ledger.freeze(), restored);
  }
}
