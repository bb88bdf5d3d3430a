package io.criresmgr.cache;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;

/**
 * An immutable set of names iterated in sorted order, backed by a sorted array: {@link
 * Container#pending}. A container copied with its pending controllers unchanged shares the set
 * instead of copying it (a decision can update hundreds of containers).
 */
final class SortedNames extends AbstractSet<String> {
  private static final SortedNames EMPTY = new SortedNames(new String[0]);

  /**
   * The last set {@link #of} made: the sets met in practice are the running controllers, the same
   * handful for every re-assigned container, so they are shared instead of copied per container
   * (docs/benchmarks.md, "Issue 20: re-assigned containers, fourth round"). Any thread may replace
   * it; a race only costs a copy.
   */
  private static volatile SortedNames lastMade = EMPTY;

  private final String[] names;

  private SortedNames(String[] names) {
    this.names = names;
  }

  /** {@code names} as a sorted immutable set: itself if it is one already. */
  static SortedNames of(Set<String> names) {
    if (names instanceof SortedNames sorted) {
      return sorted;
    }
    if (names.isEmpty()) {
      return EMPTY;
    }
    SortedNames last = lastMade;
    if (last.sameAs(names)) {
      return last;
    }
    // a set holds no duplicates: sorting its array is enough (no TreeSet per re-assigned container)
    String[] sorted = names.toArray(new String[0]);
    Arrays.sort(sorted);
    SortedNames made = new SortedNames(sorted);
    lastMade = made;
    return made;
  }

  /** Whether {@code other} holds the same names, without an iterator of either. */
  private boolean sameAs(Set<String> other) {
    if (other.size() != names.length) {
      return false;
    }
    for (String name : names) {
      if (!other.contains(name)) {
        return false;
      }
    }
    return true;
  }

  /** This set with {@code more} added: itself if it holds them all. */
  SortedNames with(Set<String> more) {
    // isEmpty first: most updates add no pending controller, and containsAll makes an iterator;
    // none pending (the marks of the last update were cleared): the shared set, no iterator
    if (more.isEmpty()) {
      return this;
    }
    if (names.length == 0) {
      return of(more);
    }
    if (containsAll(more)) {
      return this;
    }
    TreeSet<String> all = new TreeSet<>(more);
    all.addAll(Arrays.asList(names));
    return new SortedNames(all.toArray(new String[0]));
  }

  /** This set without {@code name}: itself if it does not hold it. */
  SortedNames without(String name) {
    int i = Arrays.binarySearch(names, name);
    if (i < 0) {
      return this;
    }
    if (names.length == 1) {
      return EMPTY;
    }
    String[] rest = new String[names.length - 1];
    System.arraycopy(names, 0, rest, 0, i);
    System.arraycopy(names, i + 1, rest, i, rest.length - i);
    return new SortedNames(rest);
  }

  @Override
  public boolean contains(Object o) {
    return o instanceof String s && Arrays.binarySearch(names, s) >= 0;
  }

  @Override
  public int size() {
    return names.length;
  }

  @Override
  public Iterator<String> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < names.length;
      }

      @Override
      public String next() {
        if (next >= names.length) {
          throw new NoSuchElementException();
        }
        return names[next++];
      }
    };
  }
}
