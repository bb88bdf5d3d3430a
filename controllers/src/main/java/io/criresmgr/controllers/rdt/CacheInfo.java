package io.criresmgr.controllers.rdt;

import java.util.List;

/**
 * What resctrl reports for one cache level ({@code info/L3}, {@code info/L2}).
 *
 * @param cbmMask the full capacity bitmask ({@code cbm_mask})
 * @param minCbmBits the fewest bits a mask may have ({@code min_cbm_bits})
 * @param numClosids the number of classes of service ({@code num_closids})
 * @param cacheIds the cache ids, from the root group's schemata
 */
public record CacheInfo(long cbmMask, int minCbmBits, int numClosids, List<Integer> cacheIds) {
  /** Copies the list. */
  public CacheInfo {
    cacheIds = List.copyOf(cacheIds);
  }

  /** The number of bits of {@link #cbmMask}. */
  public int bits() {
    return Long.bitCount(cbmMask);
  }
}
