package io.criresmgr.controllers.cgroups;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A non-empty set of CPU or memory node ids, as in {@code cpuset.cpus} and {@code cpuset.mems}.
 * {@link #toString()} is the kernel's canonical list form ({@code 0-3,6,8-9}), so a write of a
 * value that the kernel already holds is skipped.
 *
 * @param ids the ids, sorted
 */
public record CpusetList(SortedSet<Integer> ids) {
  /** Checks that the set is non-empty and holds no negative id, and copies it. */
  public CpusetList {
    ids = new TreeSet<>(ids);
    if (ids.isEmpty()) {
      throw new CgroupException("empty cpuset list: expected at least one id");
    }
    if (ids.first() < 0) {
      throw new CgroupException("invalid cpuset id " + ids.first() + ": expected 0 or more");
    }
    ids = Collections.unmodifiableSortedSet(ids);
  }

  /**
   * Parses a list such as {@code 0-3,6} (spaces around items allowed).
   *
   * @throws CgroupException naming the list and the bad item
   */
  public static CpusetList parse(String list) {
    SortedSet<Integer> ids = new TreeSet<>();
    for (String item : list.split(",", -1)) {
      parseItem(list, item.strip(), ids);
    }
    return new CpusetList(ids);
  }

  private static void parseItem(String list, String item, SortedSet<Integer> ids) {
    int dash = item.indexOf('-');
    try {
      int lo = Integer.parseInt(dash < 0 ? item : item.substring(0, dash));
      int hi = dash < 0 ? lo : Integer.parseInt(item.substring(dash + 1));
      if (lo < 0 || hi < lo) {
        throw new NumberFormatException();
      }
      for (int i = lo; i <= hi; i++) {
        ids.add(i);
      }
    } catch (NumberFormatException e) {
      throw new CgroupException(
          "invalid cpuset list \""
              + list
              + "\": bad item \""
              + item
              + "\", expected N or N-M with 0 <= N <= M, separated by commas");
    }
  }

  /** The canonical form: ascending, runs of two or more as {@code N-M}. */
  @Override
  public String toString() {
    List<String> items = new ArrayList<>();
    int start = -1;
    int prev = -2;
    for (int id : ids) {
      if (id != prev + 1) {
        addRun(items, start, prev);
        start = id;
      }
      prev = id;
    }
    addRun(items, start, prev);
    return String.join(",", items);
  }

  private static void addRun(List<String> items, int start, int end) {
    if (start >= 0) {
      items.add(start == end ? Integer.toString(start) : start + "-" + end);
    }
  }
}
