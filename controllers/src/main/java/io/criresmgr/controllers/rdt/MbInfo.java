package io.criresmgr.controllers.rdt;

import java.util.List;

/**
 * What resctrl reports for memory bandwidth allocation ({@code info/MB}).
 *
 * @param minBandwidth the smallest percentage ({@code min_bandwidth})
 * @param bandwidthGran the percentage step ({@code bandwidth_gran})
 * @param numClosids the number of classes of service ({@code num_closids})
 * @param cacheIds the ids the {@code MB:} schemata line has, from the root group's schemata
 */
public record MbInfo(int minBandwidth, int bandwidthGran, int numClosids, List<Integer> cacheIds) {
  /** Copies the list. */
  public MbInfo {
    cacheIds = List.copyOf(cacheIds);
  }
}
