package io.criresmgr.policy.cpuallocator;

import io.criresmgr.cache.CpuSet;
import java.util.function.BiFunction;

/**
 * Takes CPUs preferring some of them: for a container adopted after the cache was lost, the CPUs it
 * runs on ({@link io.criresmgr.policy.Policy#adopt}), so that it keeps them where they are free.
 */
public final class PreferredCpus {
  private PreferredCpus() {}

  /**
   * {@code count} CPUs of {@code from}: the {@code preferred} ones among them first ({@code pick}
   * chooses if there are more), then ones {@code pick} chooses among the others.
   *
   * @param pick takes the given number of CPUs of a set, as the policy would without a preference
   */
  public static CpuSet take(
      CpuSet from, int count, CpuSet preferred, BiFunction<CpuSet, Integer, CpuSet> pick) {
    CpuSet mine = from.intersection(preferred);
    if (mine.isEmpty()) {
      return pick.apply(from, count);
    }
    if (mine.size() >= count) {
      return mine.size() == count ? mine : pick.apply(mine, count);
    }
    return mine.union(pick.apply(from.difference(mine), count - mine.size()));
  }
}
