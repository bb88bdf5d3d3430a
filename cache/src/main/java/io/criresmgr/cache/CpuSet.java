package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.BitSet;
import java.util.Collection;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * An immutable set of CPU or memory-node ids, printed and parsed in the kernel's list format
 * ({@code 0-3,8,10-11}). Serialized to JSON as that string, as cri-resmgr stores cpusets.
 */
public final class CpuSet {
  /** The empty set. */
  public static final CpuSet EMPTY = new CpuSet(new BitSet());

  private final BitSet bits;
  private @Nullable String text;

  private CpuSet(BitSet bits) {
    this.bits = bits;
  }

  /** The set of the given ids; ids must not be negative. */
  public static CpuSet of(int... ids) {
    BitSet bits = new BitSet();
    for (int id : ids) {
      bits.set(checkId(id, String.valueOf(id)));
    }
    return new CpuSet(bits);
  }

  /** The set of the given ids; ids must not be negative. */
  public static CpuSet of(Collection<Integer> ids) {
    return of(ids.stream().mapToInt(Integer::intValue).toArray());
  }

  /** The ids {@code from} to {@code to}, both included. */
  public static CpuSet range(int from, int to) {
    BitSet bits = new BitSet();
    if (to >= from) {
      bits.set(checkId(from, from + "-" + to), to + 1);
    }
    return new CpuSet(bits);
  }

  /**
   * Parses the kernel list format; blanks around entries are ignored, an empty or blank string is
   * the empty set.
   *
   * @throws IllegalArgumentException naming the bad entry
   */
  @JsonCreator
  public static CpuSet parse(String text) {
    BitSet bits = new BitSet();
    String trimmed = text.trim();
    if (trimmed.isEmpty()) {
      return EMPTY;
    }
    for (String part : trimmed.split(",", -1)) {
      addEntry(bits, part.trim(), text);
    }
    return new CpuSet(bits);
  }

  private static void addEntry(BitSet bits, String entry, String text) {
    int dash = entry.indexOf('-', 1);
    try {
      if (dash < 0) {
        bits.set(checkId(Integer.parseInt(entry), text));
        return;
      }
      int from = checkId(Integer.parseInt(entry.substring(0, dash).trim()), text);
      int to = checkId(Integer.parseInt(entry.substring(dash + 1).trim()), text);
      if (to < from) {
        throw invalid(text, "range " + entry + " ends before it starts");
      }
      bits.set(from, to + 1);
    } catch (NumberFormatException e) {
      throw invalid(text, "\"" + entry + "\" is not a number or a range like 0-3");
    }
  }

  private static int checkId(int id, String text) {
    if (id < 0 || id > 1 << 20) {
      throw invalid(text, "id " + id + " is out of range 0-" + (1 << 20));
    }
    return id;
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException(
        "invalid CPU list \"" + text + "\": " + why + " (expected a list such as 0-3,8)");
  }

  /** Number of ids. */
  public int size() {
    return bits.cardinality();
  }

  /** Whether there are no ids. */
  public boolean isEmpty() {
    return bits.isEmpty();
  }

  /** Whether {@code id} is in the set. */
  public boolean contains(int id) {
    return id >= 0 && bits.get(id);
  }

  /** Whether every id of {@code other} is in this set. */
  public boolean containsAll(CpuSet other) {
    return other.difference(this).isEmpty();
  }

  /** Whether the sets share an id. */
  public boolean intersects(CpuSet other) {
    return bits.intersects(other.bits);
  }

  /** Ids in either set. */
  public CpuSet union(CpuSet other) {
    BitSet copy = (BitSet) bits.clone();
    copy.or(other.bits);
    return new CpuSet(copy);
  }

  /** Ids in both sets. */
  public CpuSet intersection(CpuSet other) {
    BitSet copy = (BitSet) bits.clone();
    copy.and(other.bits);
    return new CpuSet(copy);
  }

  /** Ids of this set that are not in {@code other}. */
  public CpuSet difference(CpuSet other) {
    BitSet copy = (BitSet) bits.clone();
    copy.andNot(other.bits);
    return new CpuSet(copy);
  }

  /** The lowest {@code count} ids (all of them if there are fewer). */
  public CpuSet lowest(int count) {
    return of(stream().limit(Math.max(0, count)).toArray());
  }

  /**
   * The lowest id that is at least {@code from}, or -1 if there is none: iterates the set without
   * allocating ({@code for (int id = set.next(0); id >= 0; id = set.next(id + 1))}).
   */
  public int next(int from) {
    return bits.nextSetBit(Math.max(0, from));
  }

  /** The ids in ascending order. */
  public IntStream stream() {
    return bits.stream();
  }

  /** The kernel list format, e.g. {@code 0-3,8}; empty for the empty set. */
  @JsonValue
  @Override
  public String toString() {
    // Kept: the containers of a pool share one CpuSet, and each re-assigned container's update
    // and exported data ask for its text (docs/benchmarks.md, "Issue 20: re-assigned
    // containers"). A race makes equal strings at worst.
    String known = text;
    if (known == null) {
      known = format();
      text = known;
    }
    return known;
  }

  private String format() {
    StringBuilder out = new StringBuilder();
    int start = bits.nextSetBit(0);
    while (start >= 0) {
      int end = bits.nextClearBit(start) - 1;
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(start);
      if (end > start) {
        out.append('-').append(end);
      }
      start = bits.nextSetBit(end + 1);
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CpuSet other && bits.equals(other.bits);
  }

  @Override
  public int hashCode() {
    return bits.hashCode();
  }
}
