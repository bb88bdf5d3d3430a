package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.DataMemo;
import org.jspecify.annotations.Nullable;

/**
 * The ledgers behind the last two policy data trees this policy produced or restored (see {@link
 * DataMemo}), so the next request need not parse hundreds of grants again.
 */
final class StateMemo {
  private final DataMemo<Entry> memo = new DataMemo<>();

  /**
   * A remembered state.
   *
   * @param ledger the frozen ledger the data stands for
   * @param restored whether the ledger was restored from the data, not produced with it, so the
   *     cache may not reflect it yet
   */
  record Entry(Ledger ledger, boolean restored) {}

  /** The state remembered for {@code data}, if it is one of the last two. */
  @Nullable Entry get(JsonNode data) {
    return memo.get(data);
  }

  /** Remembers that {@code data} stands for {@code ledger} (which gets frozen). */
  void put(JsonNode data, Ledger ledger, boolean restored) {
    memo.put(data, new Entry(ledger.freeze(), restored));
  }
}
